import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The project's own import graph, read with the TypeScript parser: every relative module specifier of every
// source file (static imports, re-exports, `import type`, dynamic `import('…')`), resolved to a repository path.

export const projectRoot = path.resolve(import.meta.dirname, '../..');

export interface ImportEdge {
  /** Repository path of the importing file, with forward slashes. */
  from: string;
  /** Repository path the specifier resolves to (`.js` written for a `.ts` file is read as the `.ts`). */
  to: string;
  specifier: string;
}

/** Every `.ts` file below a folder, as repository paths. */
export function sourceFiles(folder: string): string[] {
  const absolute = path.join(projectRoot, folder);
  return readdirSync(absolute, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => toRepositoryPath(path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').includes('node_modules'))
    .sort();
}

function toRepositoryPath(absolute: string): string {
  return path.relative(projectRoot, absolute).split(path.sep).join('/');
}

/** Every module specifier in a file's source text. */
export function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Resolves a relative specifier written in `from` to a repository path (`./x.js` → `dir/x.ts`). */
export function resolveSpecifier(from: string, specifier: string): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return joined.endsWith('.js') ? `${joined.slice(0, -3)}.ts` : joined;
}

/** The relative imports of every file below the given folders. */
export function importEdges(folders: readonly string[]): ImportEdge[] {
  return folders.flatMap((folder) =>
    sourceFiles(folder).flatMap((from) =>
      moduleSpecifiers(from, readFileSync(path.join(projectRoot, from), 'utf8'))
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ from, to: resolveSpecifier(from, specifier), specifier })),
    ),
  );
}
