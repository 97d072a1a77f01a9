/** What every command-line tool of the product shares: its streams, its environment, and how bad usage is told. */

export interface CliContext {
  argv: string[];
  env: Record<string, string | undefined>;
  /** Where relative paths are read from. */
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

/** Exit codes: 0 clean, 1 findings (or an article refused or failed), 2 bad usage or no access. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** Bad usage or no access: the message says which argument and what was expected (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface ParsedArgs {
  positional: string[];
  /** Each option's values (a flag: `["true"]`), by name without the dashes. */
  options: Map<string, string[]>;
}

/**
 * Reads `--name value`, `--name=value` and flags. Every option must be one the command knows (`flags` take no
 * value, `values` take one and may repeat): a typo is an error, never an ignored option.
 */
export function parseArgs(argv: string[], spec: { flags: string[]; values: string[] }, command: string): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (spec.flags.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value (got '${inline}')`);
      options.set(name, ["true"]);
    } else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      options.set(name, [...(options.get(name) ?? []), value]);
    } else {
      const known = [...spec.flags, ...spec.values].map((o) => `--${o}`).join(", ");
      throw new UsageError(`'${command}' has no option --${name}${known ? ` (it takes ${known})` : ""}`);
    }
  }
  return { positional, options };
}

export const flag = (args: ParsedArgs, name: string) => args.options.has(name);
export const value = (args: ParsedArgs, name: string) => args.options.get(name)?.at(-1);
export function oneOf<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const given = value(args, name) ?? fallback;
  if (!allowed.includes(given as T)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got '${given}'`);
  return given as T;
}

/**
 * The command a tool's first argument names, with the arguments after it; or, when it names none, the exit code
 * once help is printed (asked for: to stdout, exit 0; missing: to stderr, exit 2) or the unknown command is said.
 */
export function commandOf<C extends string>(ctx: CliContext, tool: string, commands: Record<C, unknown>, usage: string): { command: C; rest: string[] } | number {
  const [command, ...rest] = ctx.argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    (command ? ctx.out : ctx.err)(usage);
    return command ? EXIT.clean : EXIT.usage;
  }
  if (!(command in commands)) {
    ctx.err(`${tool}: no command '${command}' (it has ${Object.keys(commands).join(", ")}).\nRun '${tool} --help' for how to use it.`);
    return EXIT.usage;
  }
  return { command: command as C, rest };
}
