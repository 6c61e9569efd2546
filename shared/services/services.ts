import { resourceStore } from '../store/stores';
import { ResourceService } from './resource-service';

let resources: ResourceService | undefined;

/** The resource use cases over this instance's store, created on first use. */
export const resourceService = () => (resources ??= new ResourceService(resourceStore()));
