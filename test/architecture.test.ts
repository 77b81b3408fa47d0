import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  const absolute = path.join(root, folder);
  return readdirSync(absolute).flatMap((name) => {
    const full = path.join(absolute, name);
    if (statSync(full).isDirectory()) return sourceFiles(path.join(folder, name));
    return name.endsWith('.ts') ? [path.join(folder, name)] : [];
  });
}

/** Every module specifier: static imports, re-exports and dynamic `import('…')`. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function crossings(from: 'adapters' | 'agent', forbidden: 'adapters' | 'agent'): string[] {
  return sourceFiles(from).flatMap((file) =>
    specifiers(file)
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => path.relative(root, path.resolve(root, path.dirname(file), specifier)).split(path.sep)[0] === forbidden)
      .map((specifier) => `${file} → ${specifier}`),
  );
}

describe('architecture', () => {
  it('adapters/ never imports agent/', () => {
    expect(sourceFiles('adapters').length).toBeGreaterThan(0);
    expect(crossings('adapters', 'agent')).toEqual([]);
  });

  it('agent/ never imports adapters/', () => {
    expect(sourceFiles('agent').length).toBeGreaterThan(0);
    expect(crossings('agent', 'adapters')).toEqual([]);
  });

  it('the checker itself sees a crossing', () => {
    // Guard against a checker that can never fail: resolve a known relative path the same way.
    const resolved = path.relative(root, path.resolve(root, 'adapters/console', '../../agent/turn.js')).split(path.sep)[0];
    expect(resolved).toBe('agent');
  });
});
