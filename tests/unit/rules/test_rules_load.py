"""The loader: includes, layers, arity files, expectations, errors; `policylang check`."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from policylang.cli.main import main
from policylang.decision import Decision, Retention, Verdict
from policylang.errors import RulesetError
from policylang.rules.load import check_ruleset, load_ruleset, load_ruleset_text

from .helpers import assert_diag, verdict_of


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_includes_are_earlier_layers_and_loaded_once(tmp_path: Path) -> None:
    write(tmp_path, "base.policy", "allow ls\n")
    write(tmp_path, "sub/a.policy", 'include "../base.policy"\nallow cat **\n')
    main_file = write(tmp_path, "main.policy", 'include "sub/a.policy"\ninclude "base.policy"\n')
    policy = load_ruleset(main_file)
    assert [Path(s).name for s in policy.sources] == ["base.policy", "a.policy", "main.policy"]
    assert verdict_of(policy, "ls") == "allow"
    assert policy.tree.rule_count == 2


def test_extra_layers_come_after_and_locked_rules_bind_them(tmp_path: Path) -> None:
    org = write(tmp_path, "org.policy", "locked ask curl **\ndeny rm -rf /\n")
    user = write(tmp_path, "user.policy", "allow curl **\n")
    policy = load_ruleset(org, extra_layers=[user])
    assert [Path(s).name for s in policy.sources] == ["org.policy", "user.policy"]
    assert verdict_of(policy, "curl example.com") == "ask"


def test_include_cycle_and_missing_file(tmp_path: Path) -> None:
    write(tmp_path, "a.policy", 'include "b.policy"\n')
    write(tmp_path, "b.policy", 'include "a.policy"\ninclude "gone.policy"\n')
    result = check_ruleset(tmp_path / "a.policy")
    assert result.policy is None
    assert_diag(result.diagnostics, code="rules.include-cycle", underlined='"a.policy"')
    assert_diag(result.diagnostics, code="rules.include-missing", underlined='"gone.policy"')


def test_unreadable_include_is_a_diagnostic(tmp_path: Path) -> None:
    write(tmp_path, "a.policy", 'include "dir"\ninclude "bad.policy"\n')
    (tmp_path / "dir").mkdir()
    (tmp_path / "bad.policy").write_bytes(b"allow \xff\n")
    result = check_ruleset(tmp_path / "a.policy")
    assert_diag(result.diagnostics, code="rules.include-unreadable", underlined='"dir"')
    assert_diag(result.diagnostics, code="rules.include-unreadable", underlined='"bad.policy"')


def test_arity_file_is_loaded_and_errors_are_diagnostics(tmp_path: Path) -> None:
    write(tmp_path, "arity.toml", '# mine\n[arity]\n"mytool sub" = 3\n')
    write(tmp_path, "bad.toml", "[arity]\nx = 0\n")
    good = write(tmp_path, "good.policy", 'arity-file "arity.toml"\narity other 2\n')
    policy = load_ruleset(good)
    assert policy.arity.prefix(["mytool", "sub", "x", "y"]) == ("mytool", "sub", "x")
    assert policy.arity.prefix(["other", "a", "b"]) == ("other", "a")
    assert policy.arity.prefix(["git", "status", "-s"]) == ("git", "status")  # shipped table
    bad = write(tmp_path, "bad.policy", 'arity-file "bad.toml"\n')
    diagnostic = assert_diag(
        check_ruleset(bad).diagnostics, code="rules.arity-file-error", underlined='"bad.toml"'
    )
    assert (
        diagnostic.message == "bad arity file `bad.toml`: arity of `x` must be a positive integer"
    )


def test_ruleset_error_holds_every_diagnostic_sorted() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset_text("deny rm ** unless nope\nalow x\ndefault maybe\n", filename="t.policy")
    codes = [d.code for d in caught.value.diagnostics]
    assert codes == ["rules.not-an-option", "rules.unknown-directive", "rules.expected-verdict"]
    assert "3 error(s) in ruleset" in str(caught.value)


def test_missing_main_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="No such file"):
        load_ruleset(tmp_path / "nope.policy")


def test_warnings_are_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        policy = load_ruleset_text("allow ls\nallow ls\n", filename="t.policy")
    assert policy.tree.rule_count == 2
    assert "rules.duplicate-rule" in caplog.text


def test_default_is_the_strictest_and_header_the_last(tmp_path: Path) -> None:
    base = write(tmp_path, "base.policy", 'policy "base" version "1"\ndefault deny\n')
    top = write(tmp_path, "top.policy", 'include "base.policy"\npolicy "top"\ndefault allow\n')
    policy = load_ruleset(top)
    assert (policy.name, policy.version, policy.default) == ("top", None, Verdict.DENY)
    assert policy.default_ref is not None
    assert policy.default_ref.location.endswith("base.policy:2:1")
    assert load_ruleset(base).name == "base"


def test_expectations_are_checked_with_an_evaluator() -> None:
    text = 'allow git status\nexpect allow "git status"\nexpect deny "git push" retention durable\n'

    def evaluator(policy):  # type: ignore[no-untyped-def]
        def evaluate(command: str) -> Decision:
            from rules.helpers import lookup

            match = lookup(policy, command)
            verdict = policy.default if match is None else match.verdict
            return Decision(command=command, verdict=verdict, retention=Retention.DURABLE,
                            concurrency_safe=False)

        return evaluate

    result = check_ruleset(text=text, filename="t.policy", evaluator=evaluator)
    assert result.policy is None
    diagnostic = assert_diag(
        result.diagnostics,
        code="rules.expectation-failed",
        underlined='expect deny "git push" retention durable',
    )
    assert diagnostic.message == (
        "expected `deny retention durable` for `git push`, got `ask retention durable`"
    )
    assert len(result.diagnostics) == 1


def test_check_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.policy", "allow ls\nallow ls\n")
    bad = write(tmp_path, "bad.policy", "alow ls\n")
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out.endswith(f"{good}: ok (2 rules, 1 warnings)\n")
    assert main(["check", "--strict", str(good)]) == 1
    capsys.readouterr()
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: 1 errors, 0 warnings" in out
    assert main(["check", str(tmp_path / "missing.policy")]) == 1


def test_compile_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = write(tmp_path, "p.policy", 'policy "p"\nallow git status|log ** id g\n')
    assert main(["compile", str(policy)]) == 0
    out = capsys.readouterr().out
    assert out == f"{policy}: 1 rule in 1 layer (--dump prints the decision tree)\n"
    assert main(["compile", "--dump", str(policy)]) == 0
    out = capsys.readouterr().out
    assert "git log ** -> allow  [g @ " in out
    assert "git status ** -> allow  [g @ " in out
    broken = write(tmp_path, "broken.policy", "alow\n")
    assert main(["compile", "--dump", str(broken)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "broken.policy:1:1: error[" in captured.err


def test_compile_dump_keeps_warnings_off_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = write(tmp_path, "w.policy", "deny 'sudo' **\nallow ls\n")
    assert main(["compile", "--dump", str(policy)]) == 0
    captured = capsys.readouterr()
    assert "warning[rules.single-quote]" in captured.err  # review BJ7
    assert "warning" not in captured.out
    assert "  ls -> allow  [" in captured.out


def test_check_cli_runs_inline_expectations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = write(tmp_path, "e.policy", 'allow ls\nexpect deny "ls"\nexpect allow "ls"\n')
    assert main(["check", str(policy)]) == 1
    out = capsys.readouterr().out
    assert "error[rules.expectation-failed]: expected `deny` for `ls`, got `allow`" in out
    assert f"{policy}: 1 errors, 0 warnings" in out
    assert main(["check", "--no-expect", str(policy)]) == 0


@pytest.mark.parametrize(("depth", "ok"), [(30, True), (400, False)])
def test_a_deep_chain_of_includes_is_a_diagnostic_not_a_crash(
    tmp_path: Path, depth: int, ok: bool
) -> None:
    """review AX8: 400 files each including the next ended `check` in a RecursionError."""
    for level in range(depth):
        following = f'include "f{level + 1}.policy"\n' if level + 1 < depth else ""
        (tmp_path / f"f{level}.policy").write_text(f"{following}allow ls{level}\n")
    result = check_ruleset(tmp_path / "f0.policy")
    codes = [d.code for d in result.errors]
    if ok:
        assert codes == []
    else:
        assert codes == ["rules.include-depth"]
        assert "deeper than 32" in result.errors[0].message


def test_a_policy_that_is_not_utf8_names_the_line_and_column_of_the_bad_byte(
    tmp_path: Path,
) -> None:
    """review AX10: the error said only "invalid continuation byte"."""
    path = tmp_path / "bin.policy"
    path.write_bytes(b'policy "x"\ndefault ask\nallow l\xffs\n')
    with pytest.raises(OSError, match=r"bin\.policy:3:8 \(byte 0xff\)"):
        load_ruleset(path)


@pytest.mark.parametrize("path", ["\x00", "a\x00b.policy", "x" * 5000 + ".policy"])
def test_an_include_path_that_cannot_be_resolved_is_a_diagnostic(path: str) -> None:
    """Found by the rules' totality property: `include "\\x00"` raised `ValueError:
    embedded null byte` out of `check`, and a path too long to stat an `OSError`."""
    result = check_ruleset(text=f'include "{path}"\n', filename="p.policy")
    assert result.policy is None
    assert [d.code for d in result.diagnostics] == ["rules.include-unreadable"]
