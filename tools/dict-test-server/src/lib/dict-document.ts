/**
 * The Central Bank's published DICT API document (vendor/bacen-pix-dict-api/openapi/openapi.yaml and the
 * files it references), loaded as it is, and what the DICT test server does with it: find an operation by
 * its operationId, read an XML body into the object its schema describes, and validate that object with
 * the schema itself (Ajv). Nothing of the document is copied or rewritten: its $refs are followed where
 * they point (relative files, JSON pointers), and Ajv compiles the schemas from the files.
 *
 * XML → object follows OpenAPI's XML rules as the document uses them: an element per property named as
 * the property (or its `xml.name`), attributes for `xml.attribute`, arrays as repeated elements (or inside
 * a wrapper with `xml.wrapped`), the root element named as the schema's component (or its `xml.name`).
 * Leaf text is taken as written (no trimming): the schema's patterns judge it. A value of an `integer`,
 * `number` or `boolean` property is converted only when it is one, so that the schema reports it otherwise.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Element, Node } from '@xmldom/xmldom';
import { load } from 'js-yaml';

export const DICT_DOCUMENT_DIR = join(__dirname, '..', '..', '..', '..', 'vendor', 'bacen-pix-dict-api', 'openapi');
/** The base the document's files are known to Ajv by (any absolute URI: relative $refs resolve against it). */
const BASE = 'https://vendor.invalid/bacen-pix-dict-api/openapi/';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

export interface DictOperation {
  operationId: string;
  method: string;
  /** The path as the document writes it, e.g. `/entries/{Key}/delete`. */
  path: string;
  /** The request body's schema, where it is: the file and the JSON pointer in it (`schemas.yaml`, `/CreateEntryRequest`). */
  requestSchema?: SchemaLocation;
  /** Each response status's schema (by status code as written: `201`, `400`...). */
  responseSchemas: Record<string, SchemaLocation>;
  /** The header parameters the operation requires, with their schemas. */
  headers: Array<{ name: string; required: boolean; schema: Schema }>;
}

export interface SchemaLocation {
  file: string;
  pointer: string;
}

/** Why a body does not validate: in the problem's `violations` shape (reason, value, property). */
export interface Violation {
  reason: string;
  value?: string;
  property: string;
}

export type ValidationResult = { ok: true; value: { [key: string]: Json } } | { ok: false; violations: Violation[] };

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

const decodePointerPart = (p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~');

export class DictDocument {
  private readonly files = new Map<string, Json>();
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  readonly operations: DictOperation[];
  readonly version: string;

  constructor(readonly dir: string = DICT_DOCUMENT_DIR) {
    // strict off: the document's schemas carry OpenAPI's own keywords (example, xml, deprecated).
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    // OpenAPI leaves formats open; the document uses `currency` (amounts) besides the standard ones.
    this.ajv.addFormat('currency', true);
    const openapi = this.file('openapi.yaml');
    if (!isObject(openapi) || !isObject(openapi.paths) || !isObject(openapi.info))
      throw new Error(`${dir}/openapi.yaml is not an OpenAPI document`);
    this.version = typeof openapi.info.version === 'string' ? openapi.info.version : '';
    this.operations = this.readOperations(openapi.paths);
  }

  operation(operationId: string): DictOperation {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`the DICT document has no operation ${operationId}`);
    return op;
  }

  /** The operation whose path template matches `path` (relative to the API's base, e.g. `/entries/123/delete`) for `method`. */
  match(method: string, path: string): { operation: DictOperation; params: Record<string, string> } | undefined {
    for (const operation of this.operations) {
      if (operation.method !== method.toLowerCase()) continue;
      const names: string[] = [];
      const pattern = operation.path
        .replace(/\/$/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{([^}]+)\}/g, (_m, name: string) => {
          names.push(name);
          return '([^/]+)';
        });
      const found = new RegExp(`^${pattern}/?$`).exec(path);
      if (found) return { operation, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1])])) };
    }
    return undefined;
  }

  /** The schema at `location`, with the component name its root element takes. */
  schemaAt(location: SchemaLocation): { schema: Schema; name: string } {
    const schema = this.resolvePointer(location.file, location.pointer).value;
    if (!isObject(schema)) throw new Error(`${location.file}#${location.pointer} is not a schema`);
    return { schema, name: decodePointerPart(location.pointer.split('/').pop() ?? '') };
  }

  /** Validates `value` against the schema at `location` with Ajv (compiled once per location). */
  validate(location: SchemaLocation, value: Json): Violation[] {
    const id = `${BASE}${location.file}#${location.pointer}`;
    let validator = this.validators.get(id);
    if (!validator) {
      validator = this.ajv.getSchema(id);
      if (!validator) throw new Error(`Ajv could not compile ${id}`);
      this.validators.set(id, validator);
    }
    if (validator(value)) return [];
    return (validator.errors ?? []).filter(relevant).map(violationOf(value));
  }

  /** Validates a header's value against its parameter's schema in the document (compiled once per schema). */
  validateHeader(schema: Schema, value: string): boolean {
    const key = JSON.stringify(schema);
    let validator = this.validators.get(key);
    if (!validator) {
      validator = this.ajv.compile(schema);
      this.validators.set(key, validator);
    }
    return validator(value);
  }

  /** Reads `root` (a parsed XML element) as the schema at `location` describes it, and validates the result. */
  validateXml(location: SchemaLocation, root: Element): ValidationResult {
    const { schema, name } = this.schemaAt(location);
    const shape = this.shape(location.file, schema);
    const rootName = shape.xmlName ?? name;
    if (root.localName !== rootName)
      return { ok: false, violations: [{ reason: `the root element must be <${rootName}>`, value: root.localName ?? '', property: '' }] };
    const problems: Violation[] = [];
    const value = this.read(root, shape, rootName, problems);
    if (problems.length > 0) return { ok: false, violations: problems };
    const violations = this.validate(location, value);
    return violations.length === 0 && isObject(value) ? { ok: true, value } : { ok: false, violations };
  }

  // ---- the document's files and pointers --------------------------------------------------------------

  private file(relative: string): Json {
    const known = this.files.get(relative);
    if (known !== undefined) return known;
    const content = load(readFileSync(join(this.dir, relative), 'utf8')) as Json;
    this.files.set(relative, content);
    this.ajv.addSchema(content as object, `${BASE}${relative}`);
    // Every file it refers to is known to Ajv too, so that compiling any schema finds its references.
    for (const ref of refsIn(content)) {
      const [target] = ref.split('#');
      // The examples' XML files are $refs too (`value: {$ref: ./examples/...xml}`): only the YAML files hold schemas.
      if (target && !/^[a-z]+:/i.test(target) && /\.ya?ml$/.test(target))
        this.file(posix.normalize(posix.join(posix.dirname(relative), target)));
    }
    return content;
  }

  /**
   * The value at `pointer` in `file`, following any `$ref` met on the way (the document's
   * `components.schemas` is itself a `$ref` to another file); answers where it finally is.
   */
  private resolvePointer(file: string, pointer: string): { file: string; pointer: string; value: Json } {
    let current: { file: string; pointer: string; value: Json } = { file, pointer: '', value: this.file(file) };
    const parts = pointer.split('/').filter(Boolean).map(decodePointerPart);
    for (let i = 0; i <= parts.length; i++) {
      const v = current.value;
      if (isObject(v) && typeof v.$ref === 'string') {
        const target = this.resolveRef(current.file, v.$ref);
        current = target;
      }
      if (i === parts.length) break;
      const here = current.value;
      const next = isObject(here) ? here[parts[i]] : Array.isArray(here) ? here[Number(parts[i])] : undefined;
      if (next === undefined) throw new Error(`${file}#${pointer}: nothing at /${parts.slice(0, i + 1).join('/')}`);
      current = { file: current.file, pointer: `${current.pointer}/${parts[i].replace(/~/g, '~0').replace(/\//g, '~1')}`, value: next };
    }
    return current;
  }

  private resolveRef(fromFile: string, ref: string): { file: string; pointer: string; value: Json } {
    const [target, fragment = ''] = ref.split('#');
    const file = target ? posix.normalize(posix.join(posix.dirname(fromFile), target)) : fromFile;
    return this.resolvePointer(file, fragment);
  }

  private readOperations(paths: { [key: string]: Json }): DictOperation[] {
    const operations: DictOperation[] = [];
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
        const op = item[method];
        if (!isObject(op) || typeof op.operationId !== 'string') continue;
        const body = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content['application/xml'] : undefined;
        const bodyRef = isObject(body) && isObject(body.schema) && typeof body.schema.$ref === 'string' ? body.schema.$ref : undefined;
        const responseSchemas: Record<string, SchemaLocation> = {};
        for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
          const r =
            isObject(response) && typeof response.$ref === 'string'
              ? this.resolveRef('openapi.yaml', response.$ref)
              : { file: 'openapi.yaml', pointer: '', value: response };
          const content = isObject(r.value) && isObject(r.value.content) ? r.value.content : {};
          for (const [type, media] of Object.entries(content)) {
            if (!/xml/.test(type) || !isObject(media) || !isObject(media.schema) || typeof media.schema.$ref !== 'string') continue;
            const at = this.resolveRef(r.file, media.schema.$ref);
            responseSchemas[status] = { file: at.file, pointer: at.pointer };
          }
        }
        const headers = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
          .filter(isObject)
          .filter((p) => p.in === 'header' && typeof p.name === 'string' && isObject(p.schema))
          .map((p) => ({ name: typeof p.name === 'string' ? p.name : '', required: p.required === true, schema: p.schema as Schema }));
        let requestSchema: SchemaLocation | undefined;
        if (bodyRef) {
          const at = this.resolveRef('openapi.yaml', bodyRef);
          requestSchema = { file: at.file, pointer: at.pointer };
        }
        operations.push({ operationId: op.operationId, method, path, requestSchema, responseSchemas, headers });
      }
    }
    return operations;
  }

  // ---- XML → the object the schema describes ----------------------------------------------------------

  /** What reading an element needs of a schema: its kind, properties, items and XML names, $refs, allOf and oneOf merged. */
  private shape(file: string, schema: Json, depth = 0): Shape {
    if (depth > 32 || !isObject(schema)) return { kind: 'any', properties: new Map() };
    if (typeof schema.$ref === 'string') {
      const at = this.resolveRef(file, schema.$ref);
      const inner = this.shape(at.file, at.value, depth + 1);
      return { ...inner, xmlName: xmlOf(schema).name ?? inner.xmlName };
    }
    const xml = xmlOf(schema);
    const shape: Shape = {
      kind: kindOf(schema),
      properties: new Map(),
      xmlName: xml.name,
      attribute: xml.attribute,
      wrapped: xml.wrapped,
      namespace: xml.namespace,
    };
    if (isObject(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) shape.properties.set(name, { file, schema: property });
    }
    if (schema.items !== undefined) shape.items = { file, schema: schema.items };
    for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
      const parts = schema[keyword];
      if (!Array.isArray(parts)) continue;
      for (const part of parts) {
        const inner = this.shape(file, part, depth + 1);
        if (shape.kind === 'any') shape.kind = inner.kind;
        for (const [name, p] of inner.properties) if (!shape.properties.has(name)) shape.properties.set(name, p);
        shape.items ??= inner.items;
        shape.xmlName ??= inner.xmlName;
        shape.namespace ??= inner.namespace;
      }
    }
    return shape;
  }

  private read(element: Element, shape: Shape, path: string, problems: Violation[]): Json {
    const children = Array.from(element.childNodes);
    const elements = children.filter((n): n is Element => n.nodeType === Node.ELEMENT_NODE);
    if (shape.kind !== 'object') {
      if (elements.length > 0) problems.push({ reason: 'must be a value, not elements', property: path });
      return convert(element.textContent ?? '', shape.kind);
    }
    const text = children
      .filter((n) => n.nodeType === Node.TEXT_NODE || n.nodeType === Node.CDATA_SECTION_NODE)
      .map((n) => n.nodeValue ?? '')
      .join('');
    if (text.trim() !== '') problems.push({ reason: 'text outside any element', value: text.trim().slice(0, 64), property: path });
    const value: { [key: string]: Json } = {};
    const byName = new Map<string, { name: string; shape: Shape }>();
    for (const [name, p] of shape.properties) {
      const inner = this.shape(p.file, p.schema);
      if (inner.attribute) {
        const attr = element.getAttribute(inner.xmlName ?? name);
        if (attr !== null && element.hasAttribute(inner.xmlName ?? name)) value[name] = convert(attr, inner.kind);
        continue;
      }
      const elementName =
        inner.kind === 'array' && !inner.wrapped
          ? ((inner.items ? this.shape(inner.items.file, inner.items.schema).xmlName : undefined) ?? inner.xmlName ?? name)
          : (inner.xmlName ?? name);
      byName.set(elementName, { name, shape: inner });
      // The document's examples write its unwrapped arrays of named items wrapped all the same (ListClaimsResponse.xml:
      // <Claims><Claim>…</Claim></Claims>, where the schema's rules give repeated <Claim>): both are read.
      if (inner.kind === 'array' && !inner.wrapped && elementName !== (inner.xmlName ?? name))
        byName.set(inner.xmlName ?? name, { name, shape: { ...inner, wrapped: true } });
    }
    for (const child of elements) {
      const localName = child.localName ?? child.nodeName;
      const known = byName.get(localName);
      const childPath = `${path}.${localName}`;
      if (!known) {
        // Not in the schema: kept as it is, for the schema to judge (it allows other properties unless it says otherwise).
        value[localName] = child.textContent ?? '';
        continue;
      }
      // Namespaces are not judged here: the examples write an unqualified <Signature></Signature> where the schema
      // names XML-DSig's; the test server checks the real signature (ds:Signature) on its own.
      if (known.shape.kind === 'array') {
        const items = known.shape.items
          ? this.shape(known.shape.items.file, known.shape.items.schema)
          : { kind: 'any' as const, properties: new Map() };
        const list = (value[known.name] ??= []) as Json[];
        if (known.shape.wrapped) {
          for (const item of Array.from(child.childNodes).filter((n): n is Element => n.nodeType === Node.ELEMENT_NODE)) {
            list.push(this.read(item, items, `${childPath}.${item.localName}`, problems));
          }
        } else list.push(this.read(child, items, childPath, problems));
        continue;
      }
      if (known.name in value) {
        problems.push({ reason: 'appears more than once', property: childPath });
        continue;
      }
      // An element the schema leaves open (the Signature: `type: object`, no properties) is only present.
      value[known.name] =
        known.shape.kind === 'object' && known.shape.properties.size === 0 ? {} : this.read(child, known.shape, childPath, problems);
    }
    return value;
  }
}

interface Shape {
  kind: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'any';
  properties: Map<string, { file: string; schema: Json }>;
  items?: { file: string; schema: Json };
  xmlName?: string;
  attribute?: boolean;
  wrapped?: boolean;
  namespace?: string;
}

function xmlOf(schema: { [key: string]: Json }): { name?: string; attribute?: boolean; wrapped?: boolean; namespace?: string } {
  const xml = schema.xml;
  if (!isObject(xml)) return {};
  return {
    name: typeof xml.name === 'string' ? xml.name : undefined,
    attribute: xml.attribute === true,
    wrapped: xml.wrapped === true,
    namespace: typeof xml.namespace === 'string' ? xml.namespace : undefined,
  };
}

function kindOf(schema: { [key: string]: Json }): Shape['kind'] {
  const t = schema.type;
  if (t === 'object' || t === 'array' || t === 'string' || t === 'integer' || t === 'number' || t === 'boolean') return t;
  if (isObject(schema.properties)) return 'object';
  return 'any';
}

function convert(text: string, kind: Shape['kind']): Json {
  if ((kind === 'integer' || kind === 'number') && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function refsIn(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

/** Ajv's errors under a oneOf repeat themselves per branch; the branch errors say more than "must match exactly one". */
const relevant = (e: ErrorObject) => e.keyword !== 'if';

const violationOf =
  (root: Json) =>
  (e: ErrorObject): Violation => {
    const property = e.instancePath.split('/').filter(Boolean).map(decodePointerPart).join('.');
    let at: Json | undefined = root;
    for (const part of e.instancePath.split('/').filter(Boolean).map(decodePointerPart))
      at = isObject(at) ? at[part] : Array.isArray(at) ? at[Number(part)] : undefined;
    const missing = e.keyword === 'required' ? `.${String((e.params as { missingProperty?: string }).missingProperty)}` : '';
    return {
      reason: `${e.keyword}: ${e.message ?? 'invalid'}`,
      property: `${property}${missing}`.replace(/^\./, ''),
      ...(typeof at === 'string' || typeof at === 'number' ? { value: String(at) } : {}),
    };
  };
