import { Image, Variant } from '../../domain/images/variant';
import { named } from './schema-names';

/** The image answers both image endpoints share. */
named('Image', Image);
export const VariantSchema = named('Variant', Variant, 'The product variant an image was attached to.');
