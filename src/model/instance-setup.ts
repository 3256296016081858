import type { ModelDescriptor } from './model-descriptor';

/**
 * What every new instance of a model with relations gets once its constructor has run (its field initializers
 * would otherwise overwrite it): its relation handles. The relation layer registers the setup
 * (relations/install-relations.ts) when its decorators are loaded; the entity layer, below it, only calls it.
 */
type InstanceSetup = (model: ModelDescriptor, entity: object) => void;

let setup: InstanceSetup | undefined;

/** Registers what a new instance of a model with relations gets (called once, by the relation layer). */
export function registerInstanceSetup(install: InstanceSetup): void {
  setup = install;
}

/** Gives a new instance what its model needs: nothing for a model without relations (builds and loads are hot). */
export function setUpInstance(model: ModelDescriptor, entity: object): void {
  if (model.relations.length > 0) setup?.(model, entity);
}
