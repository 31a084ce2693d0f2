/**
 * `node:test` for the browser runner: the tests register as they do under node (`test(name, fn)`, `t.test(name,
 * { skip }, fn)`), and `runRegistered` runs them in order and returns each result as a tree, so the same test files
 * run in a page's Worker without node.
 */

export interface Outcome {
  readonly name: string;
  readonly status: "pass" | "fail" | "skip";
  readonly detail: string;
  readonly children: Outcome[];
}

interface Options {
  readonly skip?: string | boolean;
}

type Body = (t: TestContext) => unknown;

const registered: { name: string; options: Options; body: Body }[] = [];

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const stack = error.stack ?? "";
  return stack.includes(error.message) ? stack : `${error.message}\n${stack}`; // V8's stack starts with the message
}

class TestContext {
  readonly children: Outcome[] = [];

  async test(name: string, optionsOrBody: Options | Body, maybeBody?: Body): Promise<void> {
    const [options, body] = split(optionsOrBody, maybeBody);
    this.children.push(await runOne(name, options, body));
  }
}

function split(optionsOrBody: Options | Body, maybeBody?: Body): [Options, Body] {
  if (typeof optionsOrBody === "function") return [{}, optionsOrBody];
  return [optionsOrBody, maybeBody ?? (() => {})];
}

async function runOne(name: string, options: Options, body: Body): Promise<Outcome> {
  if (options.skip !== undefined && options.skip !== false) {
    return { name, status: "skip", detail: String(options.skip), children: [] };
  }
  const context = new TestContext();
  try {
    await body(context);
  } catch (error) {
    return { name, status: "fail", detail: describe(error), children: context.children };
  }
  const failed = context.children.some((child) => child.status === "fail");
  return { name, status: failed ? "fail" : "pass", detail: failed ? "a subtest failed" : "", children: context.children };
}

export function test(name: string, optionsOrBody: Options | Body, maybeBody?: Body): void {
  const [options, body] = split(optionsOrBody, maybeBody);
  registered.push({ name, options, body });
}

/** Run every registered test in the order registered; `progress` hears each top-level result as it comes. */
export async function runRegistered(progress: (outcome: Outcome) => void = () => {}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { name, options, body } of registered) {
    const outcome = await runOne(name, options, body);
    outcomes.push(outcome);
    progress(outcome);
  }
  return outcomes;
}
