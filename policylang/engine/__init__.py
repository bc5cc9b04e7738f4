"""The engine: command text → `Decision`, against a compiled policy.

Modules, in the order a decision flows through them:

- `context`: `EvalContext` (cwd, workspace, home), built once at the boundary;
- `rules`: `RuleView`, the engine's window on the compiled policy and the shell analyser
  (parse, wrappers, rule lookup, path roles, protected paths, env floors);
- `paths`: `cd` tracking and lexical/realpath resolution;
- `envpoison`: segments that change what later words mean;
- `gitconfig`: whether a repository's config lets git run programs;
- `evaluate`: the walk over every segment and the combination into a `Decision`;
- `checks`: the walk's path, redirect, glob and git-config checks (a mixin);
- `approvals`: learned "always allow" prefixes (session and TOML file);
- `explain`, `cases`: traces with rule sources, and external case tables;
- `policy`: the façade, `load_policy` and `Policy` (re-exported by `policylang`).
"""
