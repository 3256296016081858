import type { PeerName } from '../peers/peer';
import type { BulkResult } from '../workloads/bulk-create';
import type { MemoryResult } from '../workloads/memory';
import type { QueryResult } from '../workloads/query-workload';
import type { TableOneResult } from '../workloads/table-one';
import type { Machine } from './machine';

/** A target of the project, judged from the figures of this run. */
export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

/** Everything one run of the suite measured: written as results.json, and the source of every other output. */
export interface SuiteResults {
  generatedAt: string;
  command: string;
  quick: boolean;
  machine: Machine;
  peers: Array<{ name: PeerName; version: string; notes: string }>;
  tableOne: { sequential: TableOneResult; concurrent: TableOneResult };
  bulk: BulkResult;
  memory: MemoryResult;
  query: QueryResult;
  targets: Target[];
}
