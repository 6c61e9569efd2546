/** What a compiled `where` predicate, search filter or text query answers about one document. */
export type DocumentPredicate = (doc: unknown) => boolean;
