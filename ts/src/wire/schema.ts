/**
 * Message types (SPEC.md 6.3): a registered tag and an ordered list of field kinds; a message travels as
 * [tag, field_1, ..., field_n]. As p2pdurak/wire/schema.py, with plain objects for messages: a decoded message is
 * `{type: "Member", seat: 0, name: "Anya", public_key: ...}`, its `type` naming the message type.
 *
 *     const Member = message(0x01, "Member", { seat: uint(5), name: str(64, 1, textCharset), public_key: PUBLIC_KEY });
 *     const m = decode(bytes, Member);      // m.seat is a number; DecodeError with the reason code otherwise
 *     encode(m);                            // the canonical bytes again
 */

import { DecodeError, EncodeError, MAX_MESSAGE_SIZE, type Value, decodeValue, encodeValue } from "./canonical";
import { FieldError, type Kind } from "./kinds";
import { DEFINED_TAGS } from "./tags";

// biome-ignore lint: the field map of any message type
export type Fields = Record<string, Kind<any>>;
export type FieldValues<F extends Fields> = { readonly [K in keyof F]: F[K] extends Kind<infer T> ? T : never };
export type Message<N extends string = string, F extends Fields = Fields> = { readonly type: N } & FieldValues<F>;

export interface MessageType<N extends string = string, F extends Fields = Fields> {
  readonly tag: number;
  readonly name: N;
  readonly fields: F;
  readonly names: readonly string[];
  readonly maxSize: number;
  readonly registry: Registry;
  /** The message with these field values (not checked until it is encoded). */
  make(values: FieldValues<F>): Message<N, F>;
}

// biome-ignore lint: any message type
export type AnyType = MessageType<string, any>;
export type MessageOf<MT> = MT extends MessageType<infer N, infer F> ? Message<N, F> : never;

export class Registry {
  private readonly byTag = new Map<number, AnyType>();

  /** `defined`: the tags the specification gives a type, registered here or not (R-WIRE-9). */
  constructor(private readonly defined: ReadonlySet<number> = new Set()) {}

  private readonly byName = new Map<string, AnyType>();

  /** Register a message type under `tag` (1..127, R-WIRE-7); the field order is the order of `fields`. */
  define<const N extends string, F extends Fields>(
    tag: number,
    name: N,
    fields: F,
    maxSize = MAX_MESSAGE_SIZE,
  ): MessageType<N, F> {
    if (!Number.isInteger(tag) || tag < 1 || tag > 0x7f) throw new RangeError(`tag ${tag} outside 1..127`);
    if (this.byTag.has(tag)) throw new RangeError(`tag ${tag} already used by ${this.byTag.get(tag)?.name}`);
    if (this.byName.has(name)) throw new RangeError(`message name ${name} already used`);
    if ("type" in fields) throw new RangeError(`${name}: a field may not be called "type"`);
    if (maxSize < 1 || maxSize > MAX_MESSAGE_SIZE) throw new RangeError("maxSize outside 1..MAX_MESSAGE_SIZE");
    const mt: MessageType<N, F> = {
      tag,
      name,
      fields,
      names: Object.keys(fields),
      maxSize,
      registry: this,
      make: (values) => ({ type: name, ...values }) as Message<N, F>,
    };
    this.byTag.set(tag, mt);
    this.byName.set(name, mt);
    return mt;
  }

  types(): AnyType[] {
    return [...this.byTag.keys()].sort((a, b) => a - b).map((t) => this.byTag.get(t) as AnyType);
  }

  typeNamed(name: string): AnyType {
    const mt = this.byName.get(name);
    if (mt === undefined) throw new EncodeError("unknown-type", `${name} is not a registered message`);
    return mt;
  }

  toValue(msg: Message): Value[] {
    const mt = this.typeNamed(msg.type);
    const out: Value[] = [mt.tag];
    for (const name of mt.names) {
      const kind = mt.fields[name] as Kind<unknown>;
      try {
        out.push(kind.encode((msg as Record<string, unknown>)[name]));
      } catch (exc) {
        if (exc instanceof FieldError) throw new FieldError(`${mt.name}.${name}: ${exc.message}`, exc.reason);
        throw exc;
      }
    }
    return out;
  }

  /** Check a decoded value against the schema (null: any type); problems surface as FieldError. */
  fromValue(value: Value, expected: readonly AnyType[] | null): Message {
    const tag = Array.isArray(value) ? (value as readonly Value[])[0] : undefined;
    if (!Array.isArray(value) || (typeof tag !== "number" && typeof tag !== "bigint")) {
      throw new FieldError("not an array starting with an unsigned int tag", "not-a-message");
    }
    const mt = typeof tag === "number" ? this.byTag.get(tag) : undefined;
    if (mt === undefined) {
      // a type of a layer this bundle has not loaded: not the one expected
      if (typeof tag === "number" && this.defined.has(tag)) {
        throw new FieldError(`message tag ${tag} where another type was expected`, "unexpected-type");
      }
      throw new FieldError(`unknown message tag ${tag}`, "unknown-type");
    }
    if (expected !== null && !expected.includes(mt)) {
      const names = expected.map((t) => t.name).join(" or ");
      throw new FieldError(`${mt.name} where ${names} was expected`, "unexpected-type");
    }
    if (value.length - 1 !== mt.names.length) {
      throw new FieldError(`${mt.name} has ${mt.names.length} fields, got ${value.length - 1}`, "field-count");
    }
    const out: Record<string, unknown> = { type: mt.name };
    mt.names.forEach((name, i) => {
      const kind = mt.fields[name] as Kind<unknown>;
      try {
        out[name] = kind.decode((value as readonly Value[])[i + 1] ?? null);
      } catch (exc) {
        if (exc instanceof FieldError) throw new FieldError(`${mt.name}.${name}: ${exc.message}`, exc.reason);
        throw exc;
      }
    });
    return out as Message;
  }

  /** The canonical bytes of a message; EncodeError if a field is out of its kind (our own bug). */
  encode(msg: Message): Uint8Array {
    const mt = this.typeNamed(msg.type);
    let data: Uint8Array;
    try {
      data = encodeValue(this.toValue(msg));
    } catch (exc) {
      if (exc instanceof FieldError) throw new EncodeError(exc.reason, exc.message);
      throw exc;
    }
    if (data.length > mt.maxSize) {
      throw new EncodeError("too-large", `${mt.name} encodes to ${data.length} bytes, limit ${mt.maxSize}`);
    }
    return data;
  }

  /** Decode bytes that must be exactly the canonical encoding of an `expected` message. */
  decode<MT extends AnyType>(data: Uint8Array, expected: MT, seat: number | null = null): MessageOf<MT> {
    return this.decodeChecked(data, [expected], seat) as MessageOf<MT>;
  }

  decodeOneOf<const MTs extends readonly AnyType[]>(
    data: Uint8Array,
    expected: MTs,
    seat: number | null = null,
  ): MessageOf<MTs[number]> {
    return this.decodeChecked(data, expected, seat) as MessageOf<MTs[number]>;
  }

  decodeAny(data: Uint8Array, seat: number | null = null): Message {
    return this.decodeChecked(data, null, seat);
  }

  private decodeChecked(data: Uint8Array, expected: readonly AnyType[] | null, seat: number | null): Message {
    const limit = expected === null ? MAX_MESSAGE_SIZE : Math.max(...expected.map((t) => t.maxSize));
    const value = decodeValue(data, limit, seat);
    if (Array.isArray(value) && typeof value[0] === "number") {
      const mt = this.byTag.get(value[0]);
      if (mt !== undefined && data.length > mt.maxSize && (expected === null || expected.includes(mt))) {
        throw new DecodeError("too-large", `${mt.name}: ${data.length} bytes, limit ${mt.maxSize}`, seat);
      }
    }
    try {
      return this.fromValue(value, expected);
    } catch (exc) {
      if (exc instanceof FieldError) throw new DecodeError(exc.reason, exc.message, seat);
      throw exc;
    }
  }
}

/** A nested message (its own [tag, fields...] array) of one of the given types (R-WIRE-9, R-WIRE-10). */
export function nested<const MTs extends readonly AnyType[]>(...types: MTs): Kind<MessageOf<MTs[number]>> {
  const first = types[0];
  if (first === undefined) throw new RangeError("nested() needs a message type");
  return {
    decode: (value) => first.registry.fromValue(value, types) as MessageOf<MTs[number]>,
    encode(value) {
      const msg = value as Message;
      if (typeof msg !== "object" || msg === null || !types.some((t) => t.name === msg.type)) {
        throw new FieldError(`expected ${types.map((t) => t.name).join(" or ")}`);
      }
      return first.registry.toValue(msg);
    },
    describe: () => types.map((t) => t.name).join(" or "),
  };
}

export const REGISTRY = new Registry(DEFINED_TAGS);
export const message = REGISTRY.define.bind(REGISTRY) as Registry["define"];
export const encode = (msg: Message): Uint8Array => REGISTRY.encode(msg);
export const decode = <MT extends AnyType>(data: Uint8Array, expected: MT, seat: number | null = null) =>
  REGISTRY.decode(data, expected, seat);
export const decodeOneOf = <const MTs extends readonly AnyType[]>(
  data: Uint8Array,
  expected: MTs,
  seat: number | null = null,
) => REGISTRY.decodeOneOf(data, expected, seat);
export const decodeAny = (data: Uint8Array, seat: number | null = null): Message => REGISTRY.decodeAny(data, seat);
