import { activeConnection, Connection } from '../../redis/connection';
import { ReplicationError } from '../../errors/errors';
import { ModelDescriptor } from '../../model/model-descriptor';
import type { ReplicaPolicy } from '../../model/replica-policy';
import { acknowledgingReplicas } from '../../redis/wait-replicas';
import { afterSchema } from '../../schema/first-use';
import { callScript } from '../../store/entry-script';
import { restrictedRemoval } from '../../store/removal-program';
import type { RemoveOutcome, SaveOutcome } from '../../store/outcomes';
import { TransactionOutcome, transactionScript } from '../../store/lua/transaction';
import { runHooks } from '../run-hooks';
import { afterRemoval } from '../lifecycle/remove-lifecycle';
import { keepUpdate, refusal } from '../write-entity';
import { Placement, prepareStep, PreparedStep, refusedAt, Sections, Step, stepModel } from './transaction-steps';

/** What one transaction call is given: its steps, and for an idempotent create its memo. */
export interface TransactionRun {
  readonly steps: readonly Step[];
  readonly validate: boolean;
  /** An idempotent create: its memo's key name under the object's key base (`idem:<key>`) and time to live. */
  readonly idempotency?: { readonly key: string; readonly ttlMs: number; readonly placement?: Placement };
  /** A call's own `waitReplicas` policy, over the models'. */
  readonly replicas?: ReplicaPolicy;
}

/**
 * A transaction: the before-steps and the encoding of every step, in order (the first refusal rejects, nothing
 * sent); then one transaction.lua call, which checks every step against Redis before it writes any; then the
 * instances take what was stored, and the after-hooks run, in order. Resolves to the id an idempotency memo
 * names when an earlier call stored the object (nothing written), else undefined.
 */
export async function runTransaction({ steps, validate, idempotency, replicas }: TransactionRun): Promise<string | undefined> {
  const connection = activeConnection();
  const sections = new Sections(connection);
  const models = steps.map(stepModel);
  const prepared: PreparedStep[] = [];
  for (let index = 0; index < steps.length; index++) {
    prepared.push(await prepareStep(index, steps[index], models[index], sections, validate, idempotency?.placement));
  }
  const sent = prepared.filter((step) => step.operation !== undefined);
  if (sent.length > 0) {
    const operations = sent.map((step) => step.operation!);
    const memo = idempotency && { key: `${sections.list[0].keys.base}:idem:${idempotency.key}`, ttlMs: idempotency.ttlMs };
    const call = () => callScript(connection.client, transactionScript, { sections: sections.list, operations, memo });
    const outcome = await afterSchemas([...new Set(models)], call);
    if ('replay' in outcome) return outcome.replay;
    if ('refused' in outcome) {
      const step = sent[outcome.refused];
      const index = prepared.indexOf(step);
      throw refusedAt(index, steps[index], step.model, step.operation!.id || undefined, refusalOf(step, outcome.outcome));
    }
    keepOutcomes(sent, outcome);
  }
  const shortfall = await replicaShortfall(connection, sections, prepared, replicas);
  await afterSteps(prepared);
  if (shortfall) throw shortfall;
  return undefined;
}

/** `call` once the schema of every model is registered (first-use.ts), as each model's own writes do. */
function afterSchemas<R>(models: readonly ModelDescriptor[], call: () => Promise<R>): Promise<R> {
  return models.reduceRight<() => Promise<R>>((next, model) => () => afterSchema(model, next), call)();
}

/** The error the step's own save() or remove() would have been refused with. */
function refusalOf(step: PreparedStep, outcome: SaveOutcome | RemoveOutcome): Error {
  const id = step.operation!.id;
  if ('restrictedBy' in outcome) return restrictedRemoval(step.removal!, id, outcome.restrictedBy);
  return refusal(step.model, step.entity, outcome as Exclude<SaveOutcome, { id: string }>, step.creating ? undefined : id);
}

/** Each written instance takes its id and snapshot, as after its own save(). */
function keepOutcomes(sent: readonly PreparedStep[], outcome: Extract<TransactionOutcome, { done: unknown }>): void {
  for (let i = 0; i < sent.length; i++) {
    const step = sent[i];
    const result = outcome.done[i];
    if (step.kind === 'remove' || !('id' in result)) continue;
    if (step.creating) {
      step.state.id = result.id;
      step.state.stored = step.snapshot;
    } else keepUpdate(step.model, step.entity, step.state, step.snapshot!);
  }
}

/**
 * With a model's `waitReplicas`: one WAIT on the transaction's node, for the strictest policy of its models; the
 * ReplicationError when too few replicas acknowledged (the writes stand), reported after the after-hooks.
 */
async function replicaShortfall(
  connection: Connection,
  sections: Sections,
  prepared: readonly PreparedStep[],
  given: ReplicaPolicy | undefined,
): Promise<ReplicationError | undefined> {
  const policies = given ? [given] : prepared.map((step) => step.model.replicas).filter((policy) => policy !== undefined);
  if (policies.length === 0 || sections.list.length === 0) return undefined;
  const policy = policies.reduce((a, b) => (b.replicas > a.replicas ? b : a));
  const acknowledged = await acknowledgingReplicas(connection.transport, sections.list[0].keys.all, policy);
  if (acknowledged >= policy.replicas) return undefined;
  const first = prepared[0];
  return new ReplicationError(first.model.name, first.state.id ?? '', 'transaction', policy.replicas, acknowledged, policy.timeoutMs);
}

/** The after-hooks of every step, in order; the first that throws rejects once all have run (the writes stand). */
async function afterSteps(prepared: readonly PreparedStep[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of prepared) {
    try {
      if (step.kind === 'remove') await afterRemoval(step.model, step.entity);
      else {
        await runHooks(step.model, step.entity, step.creating ? 'afterCreate' : 'afterUpdate');
        await runHooks(step.model, step.entity, 'afterSave');
      }
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
