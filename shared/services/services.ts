import { imageStorage, uploadStore, variantStore } from '../store/image-stores';
import { resourceStore } from '../store/stores';
import { ImageService } from './image-service';
import { ResourceQueryService } from './query-service';
import { ResourceService } from './resource-service';

let resources: ResourceService | undefined;
let queries: ResourceQueryService | undefined;
let images: ImageService | undefined;

/** The use cases over this instance's store, created on first use. */
export const resourceService = () => (resources ??= new ResourceService(resourceStore()));
export const queryService = () => (queries ??= new ResourceQueryService(resourceStore()));
export const imageService = () => (images ??= new ImageService(variantStore(), imageStorage(), uploadStore()));
