import { Ajv } from 'ajv';
import jsep, { type Expression } from 'jsep';
import { BadRequestError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';

/**
 * Adaptive content (GitBook's): a site may show a section only to visitors whose claims satisfy its
 * `condition`, an expression over `visitor.claims.…`; the site's adaptive schema declares the claims.
 *
 * Conditions are parsed, never run here, with jsep (a maintained JavaScript-expression parser that
 * builds a syntax tree and evaluates nothing): what it cannot parse is a 400 with its message, and the
 * tree may only compare and combine literals and `visitor.…` values — no calls, no other variables.
 */
export const MAX_CONDITION = 1024;

const ALLOWED_OPERATORS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '&&', '||', '!', '-', '+', '??']);

function checkNode(node: Expression, field: string): void {
  const refuse = (what: string): never => {
    throw new BadRequestError(`Invalid "${field}": ${what}`);
  };
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      if (node.name !== 'visitor') refuse(`unknown name "${String(node.name)}": values come from visitor.claims`);
      return;
    case 'MemberExpression':
      checkNode(node.object as Expression, field);
      if (node.computed) checkNode(node.property as Expression, field);
      else if ((node.property as Expression).type !== 'Identifier') refuse('a property name is expected after "."');
      return;
    case 'BinaryExpression':
    case 'LogicalExpression':
    case 'UnaryExpression':
      if (!ALLOWED_OPERATORS.has(String(node.operator))) refuse(`the operator "${String(node.operator)}" is not allowed`);
      if (node.type === 'UnaryExpression') return checkNode(node.argument as Expression, field);
      checkNode(node.left as Expression, field);
      return checkNode(node.right as Expression, field);
    case 'ConditionalExpression':
      for (const part of [node.test, node.consequent, node.alternate]) checkNode(part as Expression, field);
      return;
    case 'ArrayExpression':
      for (const element of (node.elements as Expression[]) ?? []) if (element) checkNode(element, field);
      return;
    case 'Compound':
      return refuse('one expression is expected (several were given)');
    case 'CallExpression':
      return refuse('function calls are not allowed');
    default:
      return refuse(`${node.type} is not allowed`);
  }
}

/** Checks a section condition (1..1024 characters, an expression over visitor claims); 400 naming `field`. */
export function parseCondition(field: string, condition: string): Expression {
  checkLength(field, condition, 1, MAX_CONDITION);
  let tree: Expression;
  try {
    tree = jsep(condition);
  } catch (error) {
    throw new BadRequestError(`Invalid "${field}": ${(error as Error).message}`);
  }
  checkNode(tree, field);
  return tree;
}

/**
 * What an adaptive schema must be: a JSON Schema (draft-07) object schema whose `properties` are
 * boolean claims, each with a description, and no other properties (`additionalProperties: false`).
 */
const ADAPTIVE_SCHEMA_SHAPE = {
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    additionalProperties: { const: false },
    properties: {
      type: 'object',
      maxProperties: 100,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
      additionalProperties: {
        type: 'object',
        required: ['type', 'description'],
        additionalProperties: false,
        properties: { type: { const: 'boolean' }, description: { type: 'string', minLength: 1, maxLength: 1024 } },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: false });
const matchesShape = ajv.compile(ADAPTIVE_SCHEMA_SHAPE);

/**
 * A 400 with Ajv's message when `jsonSchema` is not a draft-07 schema of that shape. The shape comes
 * first: it admits only draft-07's own `$schema` and no `$ref`, so validating the schema afterwards never
 * asks Ajv for a meta-schema or a reference it does not hold (which throws rather than answers).
 */
export function checkAdaptiveSchema(jsonSchema: unknown): void {
  if (!matchesShape(jsonSchema)) {
    // Ajv's text for an unexpected key does not name it: name it, so the caller knows what to remove.
    const errors = matchesShape.errors?.map((e) =>
      e.keyword === 'additionalProperties' ? { ...e, message: `must NOT have the property "${(e.params as { additionalProperty: string }).additionalProperty}"` } : e,
    );
    throw new BadRequestError(`Invalid "jsonSchema": ${ajv.errorsText(errors, { dataVar: 'jsonSchema' })}`);
  }
  let valid: boolean;
  try {
    valid = ajv.validateSchema(jsonSchema as object) as boolean;
  } catch (error) {
    throw new BadRequestError(`Invalid "jsonSchema": ${(error as Error).message}`);
  }
  if (!valid) throw new BadRequestError(`Invalid "jsonSchema": ${ajv.errorsText(ajv.errors, { dataVar: 'jsonSchema' })}`);
}

/** A value the evaluator may hold: JSON, nothing else (no functions, no prototypes). */
type Value = unknown;

/** `object[key]` for own keys of plain objects and arrays only: `constructor`, `__proto__` … are absent. */
function member(object: Value, key: Value): Value {
  if (object === null || typeof object !== 'object') return undefined;
  const name = typeof key === 'number' ? key : String(key);
  return Object.hasOwn(object as object, name) ? (object as Record<string | number, Value>)[name] : undefined;
}

function evaluate(node: Expression, scope: { visitor: Value }): Value {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier':
      return node.name === 'visitor' ? scope.visitor : undefined;
    case 'MemberExpression':
      return member(
        evaluate(node.object as Expression, scope),
        node.computed ? evaluate(node.property as Expression, scope) : (node.property as Expression & { name: string }).name,
      );
    case 'UnaryExpression': {
      const value = evaluate(node.argument as Expression, scope);
      if (node.operator === '!') return !value;
      if (node.operator === '-') return -(value as number);
      return +(value as number);
    }
    case 'LogicalExpression':
    case 'BinaryExpression': {
      const left = evaluate(node.left as Expression, scope);
      if (node.operator === '&&') return left ? evaluate(node.right as Expression, scope) : left;
      if (node.operator === '||') return left ? left : evaluate(node.right as Expression, scope);
      if (node.operator === '??') return left ?? evaluate(node.right as Expression, scope);
      const right = evaluate(node.right as Expression, scope);
      switch (node.operator) {
        case '==':
        case '===':
          return left === right;
        case '!=':
        case '!==':
          return left !== right;
        case '<':
          return (left as number) < (right as number);
        case '<=':
          return (left as number) <= (right as number);
        case '>':
          return (left as number) > (right as number);
        case '>=':
          return (left as number) >= (right as number);
        case '-':
          return (left as number) - (right as number);
        case '+':
          return typeof left === 'number' && typeof right === 'number' ? left + right : `${String(left)}${String(right)}`;
        default:
          return undefined;
      }
    }
    case 'ConditionalExpression':
      return evaluate(node.test as Expression, scope) ? evaluate(node.consequent as Expression, scope) : evaluate(node.alternate as Expression, scope);
    case 'ArrayExpression':
      return ((node.elements as (Expression | null)[]) ?? []).map((element) => (element ? evaluate(element, scope) : undefined));
    default:
      return undefined;
  }
}

/**
 * Whether a section or site space shows for a visitor with these claims: no condition shows it to
 * everyone; a condition is evaluated over `visitor.claims` by a small interpreter of the expressions
 * `parseCondition` admits (literals, `visitor.…`, comparisons and logic — loose equality compares
 * strictly). One that does not parse or evaluate hides it.
 */
export function conditionHolds(condition: string | null | undefined, claims: Record<string, unknown>): boolean {
  if (!condition) return true;
  try {
    const tree = jsep(condition);
    checkNode(tree, 'condition');
    return Boolean(evaluate(tree, { visitor: { claims } }));
  } catch {
    return false;
  }
}
