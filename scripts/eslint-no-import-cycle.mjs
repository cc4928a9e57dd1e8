// An ESLint rule: no import circles in the workspace, `import type` counted. eslint-plugin-import(-x)'s
// no-cycle skips type-only imports with no option to count them, yet a circle closed by a type
// still binds two modules into one: the type wants a file of its own. Imports resolve the way tsc
// resolves them (relative paths, then the workspace packages' `exports` through node_modules).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

const compilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
};
// Keeps what each folder resolves to and each package.json says for the life of the process.
const resolutionCache = ts.createModuleResolutionCache(process.cwd(), (name) => name, compilerOptions);

/** The workspace file `specifier` names from `file`, or null for a package from the registry, Node's own or none. */
function resolveImport(specifier, file) {
  const resolved = ts.resolveModuleName(specifier, file, compilerOptions, ts.sys, resolutionCache).resolvedModule?.resolvedFileName;
  if (!resolved || resolved.includes('/node_modules/')) return null;
  // A hand-written declaration beside a JavaScript module stands for it: follow the module's own imports.
  const declared = /\.d\.([mc]?)ts$/.exec(resolved);
  if (!declared) return resolved;
  const source = resolved.slice(0, declared.index) + `.${declared[1]}js`;
  return existsSync(source) ? source : resolved;
}

// A file's imports, read from disk, until the file changes (an editor's ESLint lives long).
const importsByFile = new Map();
function importsOf(file) {
  const cached = importsByFile.get(file);
  let modified;
  let text;
  try {
    modified = statSync(file).mtimeMs;
    if (cached?.modified === modified) return cached.imports;
    text = readFileSync(file, 'utf8');
  } catch {
    // Moved or deleted since it was resolved: it leads nowhere.
    return [];
  }
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const imports = [...new Set(importedFiles.map(({ fileName }) => resolveImport(fileName, file)).filter((target) => target !== null))];
  importsByFile.set(file, { modified, imports });
  return imports;
}

/** A path of imports from `start` back to `file`, or null; `explored` holds files known not to lead back. */
function pathBack(start, file, explored) {
  if (explored.has(start)) return null;
  const parents = new Map([[start, null]]);
  const stack = [start];
  while (stack.length > 0) {
    const current = stack.pop();
    for (const next of importsOf(current)) {
      if (next === file) {
        const path = [file];
        for (let step = current; step !== null; step = parents.get(step)) path.unshift(step);
        return path;
      }
      if (parents.has(next) || explored.has(next)) continue;
      parents.set(next, current);
      stack.push(next);
    }
  }
  for (const visited of parents.keys()) explored.add(visited);
  return null;
}

const sourceOf = (node) => {
  const source =
    node.type === 'TSImportType'
      ? node.argument?.literal
      : node.type === 'TSImportEqualsDeclaration'
        ? node.moduleReference.expression
        : node.source;
  return source?.type === 'Literal' && typeof source.value === 'string' ? source : null;
};

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import whose module imports, directly or not, the importing file, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import circle: {{circle}}. Move what both sides need into a file of its own.' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!existsSync(file)) return {};
    const explored = new Set();
    const check = (node) => {
      const source = sourceOf(node);
      const target = source && resolveImport(source.value, file);
      if (!target || target === file) return;
      const path = pathBack(target, file, explored);
      if (path)
        context.report({
          node: source,
          messageId: 'cycle',
          data: { circle: [file, ...path].map((step) => relative(context.cwd, step)).join(' → ') },
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node),
    };
  },
};
