import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { checkedFiles, SCRIPT_EXTENSIONS, SKIPPED_FOLDERS } from './outside-references';

/**
 * Finds what a reader of the repository is sent to but cannot open in it: in documents (Markdown,
 * JSON, shell) anywhere in the text, in source files only in comments (their strings are code).
 * - a name of a document, table or tracker the repository does not carry (`NAMES_OF_ELSEWHERE`);
 * - a path whose first folder is in the repository but which names no file there, or a Markdown
 *   link to a missing file.
 */
export interface UnresolvedMention {
  file: string;
  line: number;
  mention: string;
}

/** An outside document by its role, a row of a table elsewhere, an issue or work item by number. */
const NAMES_OF_ELSEWHERE = [
  /\bthe\s+(?:interface|spec)\b|\b(?:interface|spec)'s\b/gi,
  /\brows?\s+\d+\b/gi,
  /\b(?:issue|work\s+item)\s+#?\d+\b/gi,
];

/** A path with a file extension, standing alone (not the tail of a URL or of a longer word). */
const PATH = /(?<=^|[\s`'"([])((?:\.\.?\/)*[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z]{1,5})(?![\w/])/g;
const MARKDOWN_LINK = /\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g;

/** The Markdown files of the repository, relative to the root. */
export function markdownFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : markdownFiles(root, path);
    return extname(entry.name) === '.md' ? [relative(root, path)] : [];
  });
}

/** Every unresolved mention in the Markdown files and in the files `checkedFiles` lists. */
export function unresolvedMentionsIn(root: string): UnresolvedMention[] {
  return [...markdownFiles(root), ...checkedFiles(root)].flatMap((file) => unresolvedMentions(root, file, readFileSync(join(root, file), 'utf8')));
}

/** The unresolved mentions in one file's text (`file` relative to `root`). */
export function unresolvedMentions(root: string, file: string, text: string): UnresolvedMention[] {
  const markdown = extname(file) === '.md';
  const prose = SCRIPT_EXTENSIONS.has(extname(file)) ? commentsOf(file, text) : [{ at: 0, text }];
  const folder = dirname(join(root, file));
  const found = prose.flatMap(({ at, text: passage }) => {
    const names = NAMES_OF_ELSEWHERE.flatMap((pattern) => [...passage.matchAll(pattern)].map((match) => ({ at: at + match.index, mention: match[0] })));
    // A Markdown code block's paths are a user's own files (a CLI example's `--static` document).
    const paths = [...(markdown ? withoutCodeBlocks(passage) : passage).matchAll(PATH)]
      .filter((match) => namesRepositoryPath(root, match[1]!) && !exists(root, folder, match[1]!))
      .map((match) => ({ at: at + match.index, mention: match[1]! }));
    const links = markdown
        ? [...passage.matchAll(MARKDOWN_LINK)]
            .filter((match) => !/^[a-z]+:/i.test(match[1]!) && !existsSync(resolve(folder, match[1]!)))
            .map((match) => ({ at: at + match.index, mention: match[1]! }))
        : [];
    return [...names, ...paths, ...links];
  });
  return found
    .map(({ at, mention }) => ({ file, line: text.slice(0, at).split('\n').length, mention }))
    .sort((a, b) => a.line - b.line);
}

/**
 * A relative path, or one whose first folder is a top-level entry of the repository (not
 * `image/png`); a folder in capitals is a placeholder (`functions/NAME/handler.ts`).
 */
function namesRepositoryPath(root: string, path: string): boolean {
  const segments = path.split('/');
  if (segments.some((segment) => /^[A-Z]{2,}$/.test(segment))) return false;
  if (path.startsWith('./') || path.startsWith('../')) return true;
  return segments[0] !== '' && existsSync(join(root, segments[0]!));
}

/** The text with fenced code blocks blanked out, offsets kept. */
function withoutCodeBlocks(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** Paths in prose are written from the root or from the file's folder. */
function exists(root: string, folder: string, path: string): boolean {
  return existsSync(join(root, path)) || existsSync(resolve(folder, path));
}

/** The comments of a script with their offsets: every comment before or after any token. */
function commentsOf(file: string, text: string): { at: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const comments = new Map<number, string>();
  const collect = (position: number) => {
    for (const range of [...(ts.getLeadingCommentRanges(text, position) ?? []), ...(ts.getTrailingCommentRanges(text, position) ?? [])]) {
      comments.set(range.pos, text.slice(range.pos, range.end));
    }
  };
  const visit = (node: ts.Node): void => {
    collect(node.getFullStart());
    collect(node.getEnd());
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...comments].map(([at, comment]) => ({ at, text: comment }));
}
