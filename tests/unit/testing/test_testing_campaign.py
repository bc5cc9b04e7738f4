from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import policylang
from policylang.testing import campaign

TOYS = str(Path(__file__).with_name("fuzz_toys.py"))


def test_list_names_every_invariant(capsys: pytest.CaptureFixture[str]) -> None:
    assert campaign.main(["--list"]) == campaign.EXIT_OK
    out = capsys.readouterr().out
    assert "wrapper-transparency: A wrapped command" in out
    assert "differential: The evaluator agrees with the reference evaluator on the verdict." \
        " (needs reference)" in out


def test_counterexample_found_exits_one_and_prints_trace(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = campaign.main(["--evaluator", f"{TOYS}:naive_evaluate", "--property",
                          "wrapper-transparency", "--examples", "100", "--no-seeds",
                          "--seed", "3"])
    out = capsys.readouterr().out
    assert code == campaign.EXIT_FOUND
    assert "wrapper-transparency: FAILED" in out
    assert "property wrapper-transparency violated" in out
    assert "  command: " in out
    assert "verdict: allow" in out
    assert out.rstrip().endswith("1 counterexample(s); 0 examples run") or \
        "1 counterexample(s)" in out


def test_safe_evaluator_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code = campaign.main(["--evaluator", f"{TOYS}:always_ask", "--reference",
                          f"{TOYS}:always_ask", "--property", "differential", "--property",
                          "fail-closed", "--examples", "30", "--no-seeds"])
    out = capsys.readouterr().out
    assert code == campaign.EXIT_OK
    assert "differential: ok after 30 examples" in out
    assert "0 counterexample(s); 60 examples run" in out


def test_budget_mode_runs_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    code = campaign.main(["--evaluator", f"{TOYS}:always_ask", "--property", "totality",
                          "--budget", "0.5s", "--no-seeds"])
    assert code == campaign.EXIT_OK
    assert "totality: ok after" in capsys.readouterr().out


def test_usage_errors_exit_two(capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert campaign.main([]) == campaign.EXIT_USAGE
    assert "give a RULESET file or --evaluator" in capsys.readouterr().err
    assert campaign.main(["--evaluator", "nocolon"]) == campaign.EXIT_USAGE
    assert campaign.main(["--evaluator", f"{TOYS}:no_such_name"]) == campaign.EXIT_USAGE
    assert campaign.main(["no/such.policy"]) == campaign.EXIT_USAGE
    assert "no/such.policy" in capsys.readouterr().err
    monkeypatch.setattr(policylang, "load_policy", None)
    assert campaign.main(["some.policy"]) == campaign.EXIT_USAGE
    assert "policylang.load_policy is missing" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "seconds"), [("60", 60.0), ("90s", 90.0), ("2m", 120.0),
                                               ("1h", 3600.0), ("0.5s", 0.5)])
def test_parse_budget(text: str, seconds: float) -> None:
    assert campaign.parse_budget(text) == seconds


def test_parse_budget_rejects_garbage() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="invalid budget `soon`"):
        campaign.parse_budget("soon")


def test_load_callable_accepts_module_paths_and_objects() -> None:
    evaluate = campaign.load_callable("policylang.decision:Verdict")
    result: object = evaluate("allow")  # any callable: here it returns a Verdict
    assert result == policylang.Verdict.ALLOW
    with pytest.raises(ValueError, match="not callable"):
        campaign.load_callable("policylang.decision:_RANK")


def test_line_writes_uses_the_shell_analyser() -> None:
    assert campaign._line_writes("ls > out.txt")
    assert campaign._line_writes("echo $(cat x > y)")
    assert not campaign._line_writes("ls 2>/dev/null")
    assert not campaign._line_writes("ls 2>&1 | wc -l")
    assert campaign._line_writes("echo 'unclosed")  # cannot see: assume it writes


def test_a_budget_counterexample_can_be_reproduced() -> None:
    from fuzz_toys import naive_evaluate

    from policylang.testing.invariants import INVARIANTS, Subjects

    invariant = INVARIANTS["substitution-soundness"]
    strategy = campaign.strategy_for(invariant.name)
    subjects = Subjects(evaluate=naive_evaluate)
    found = campaign.run_property(invariant, subjects, strategy, seed=5, budget_s=30.0)
    assert found.violation is not None
    assert found.reproduce is not None
    # the first round of a budget run is small (it measures the examples' cost)
    assert "  reproduce with: --property substitution-soundness --seed 5 --examples 20" \
        in found.render()
    seed, examples = found.reproduce
    again = campaign.run_property(invariant, subjects, strategy, seed=seed, examples=examples)
    assert again.violation == found.violation


def test_policylang_fuzz_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    from policylang.cli.main import main

    code = main(["fuzz", "--evaluator", f"{TOYS}:always_ask", "--property", "fail-closed",
                 "--examples", "20", "--no-seeds"])
    assert code == campaign.EXIT_OK
    assert "fail-closed: ok after 20 examples" in capsys.readouterr().out


def test_policylang_fuzz_finds_the_shipped_default_policy_loadable(
        capsys: pytest.CaptureFixture[str]) -> None:
    from policylang.cli.main import main

    code = main(["fuzz", "rulesets/default.policy", "--property", "totality", "--examples",
                 "20", "--no-seeds"])
    assert code == campaign.EXIT_OK
    assert "totality: ok after 20 examples" in capsys.readouterr().out


def test_assert_policy_invariants(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzz_toys import naive_evaluate

    from policylang.testing.invariants import Subjects

    report = campaign.assert_policy_invariants("rulesets/default.policy",
                                               names=["totality", "determinism"], examples=20)
    assert [p.examples for p in report.properties] == [20, 20]
    monkeypatch.setattr(campaign, "policy_subjects",
                        lambda path: Subjects(evaluate=naive_evaluate))
    with pytest.raises(AssertionError, match="property fail-closed violated"):
        campaign.assert_policy_invariants("any.policy", names=["fail-closed"], examples=50)


DEFAULT_POLICY = Path(__file__).resolve().parents[3] / "policylang" / "rulesets" / "default.policy"


def test_dynamic_runs_the_oracle_after_the_invariants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an empty corpora directory: only the built-in probes run (some of them write)
    status = campaign.main([str(DEFAULT_POLICY), "--property", "determinism", "--examples",
                            "5", "--no-seeds", "--dynamic", "--corpora", str(tmp_path),
                            "--dynamic-show", "1"])
    out = capsys.readouterr().out
    assert status == campaign.EXIT_FOUND
    assert out.index("determinism: ok after 5 examples") < out.index("dynamic oracle: ")
    assert "write: " in out


def test_dynamic_needs_a_policy_file(capsys: pytest.CaptureFixture[str]) -> None:
    status = campaign.main(["--evaluator", "policylang.decision:Verdict", "--property",
                            "totality", "--examples", "1", "--dynamic"])
    assert status == campaign.EXIT_USAGE
    assert "--dynamic needs a RULESET file" in capsys.readouterr().err


def test_the_fuzzer_tests_the_policys_own_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # review AR1: the generators used only fixed words, so a hole in a rule about `/srv`
    # went unseen: `deny rm -rf /srv` with `allow rm **` let `rm -r -f /srv` through
    policy = tmp_path / "hole.policy"
    policy.write_text('policy "h"\ndefault ask\ndeny rm -rf /srv\nallow rm **\n')
    code = policylang.cli.main.main(
        ["fuzz", str(policy), "--property", "option-invariance", "--examples", "300",
         "--no-seeds"])
    out = capsys.readouterr().out
    assert code == campaign.EXIT_FOUND
    assert "rm -rf /srv" in out


def test_policy_seeds_are_made_from_the_rules(tmp_path: Path) -> None:
    from policylang.testing.seeds import policy_seeds

    policy = tmp_path / "p.policy"
    policy.write_text('policy "p"\ndeny rm -rf /srv\nask curl ** when -d operand *evil.example*\n'
                      "allow git status|log **\n")
    commands, operands = policy_seeds(policy)
    assert commands == ("rm -rf /srv", "curl -d evil.example", "curl evil.example",
                        "git status")
    assert operands == {"rm": ("/srv",), "curl": ("evil.example",), "git": ("status",)}


@pytest.mark.parametrize("arguments", [["--examples", "0"], ["--examples", "-1"],
                                       ["--corpora", "/nonexistent/corpora"]])
def test_bad_fuzz_arguments_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    # review AR2, AR3: a traceback with the "found" status, or silently no seeds
    policy = tmp_path / "p.policy"
    policy.write_text('policy "p"\nallow ls **\n')
    with pytest.raises(SystemExit) as exit_info:
        policylang.cli.main.main(["fuzz", str(policy), *arguments])
    assert exit_info.value.code == campaign.EXIT_USAGE
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("toy", "fail_on", "code"), [
    ("spelling_sensitive", "any", campaign.EXIT_FOUND),
    ("spelling_sensitive", "looser", campaign.EXIT_OK),
    ("allowed_when_quoted", "looser", campaign.EXIT_FOUND),
])
def test_fail_on_looser_ignores_over_strict_differences(
    capsys: pytest.CaptureFixture[str], toy: str, fail_on: str, code: int
) -> None:
    # review AR11: an over-strict engine quirk failed a team's CI gate like a hole
    status = campaign.main(["--evaluator", f"{TOYS}:{toy}", "--property", "quoting-invariance",
                            "--examples", "200", "--no-seeds", "--seed", "1",
                            "--fail-on", fail_on])
    out = capsys.readouterr().out
    assert status == code
    kind = "stricter" if toy == "spelling_sensitive" else "looser"
    assert f"1 counterexample(s) (1 {kind})" in out


def test_a_property_stopped_by_the_campaigns_own_error_is_reported_and_the_rest_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # review DY3: a generator's ValueError ended the whole campaign with a traceback, no
    # summary and the status of a counterexample
    from hypothesis import strategies as st

    real = campaign.strategy_for

    def failing_for(name: str, *args: object, **kwargs: object) -> st.SearchStrategy[object]:
        if name == "fail-closed":
            return st.integers(0, 3).map(lambda n: n // 0)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(campaign, "strategy_for", failing_for)
    code = campaign.main(["--evaluator", f"{TOYS}:always_ask", "--property", "fail-closed",
                          "--property", "determinism", "--examples", "20", "--no-seeds"])
    out = capsys.readouterr().out
    assert code == campaign.EXIT_ERROR
    assert "fail-closed: ERROR after 0 examples" in out
    assert "ZeroDivisionError" in out
    assert "reproduce with: --property fail-closed --seed 0 --examples 20" in out
    assert "determinism: ok after 20 examples" in out
    assert out.rstrip().endswith(
        "0 counterexample(s); 1 property(ies) stopped on an error (fail-closed); "
        "20 examples run"
    )


def test_mutations_of_a_seed_holding_a_nul_stay_total() -> None:
    # the golden table's `echo a\0b`: a NUL cannot be quoted into `bash -c '…'` (DY3)
    from hypothesis import given, settings

    from policylang.testing.strategies import mutated_commands

    seen: list[str] = []

    @settings(max_examples=300, database=None, deadline=None)
    @given(mutated_commands(["echo a\0b"]))
    def run(command: str) -> None:
        seen.append(command)

    run()
    assert len(seen) >= 100


def test_policy_seeds_follow_includes(tmp_path: Path) -> None:
    # review DY4: the shipped default.policy, whose rules are all in its include, gave none
    from policylang.testing.seeds import policy_seeds

    (tmp_path / "base.policy").write_text(
        'policy "base"\ninclude "top.policy"\ndeny rm -rf /srv\n'
    )
    (tmp_path / "top.policy").write_text('policy "top"\ninclude "base.policy"\nask curl **\n')
    commands, operands = policy_seeds(tmp_path / "top.policy")
    assert set(commands) == {"rm -rf /srv", "curl"}  # (the cycle ends)
    assert operands == {"rm": ("/srv",)}
    shipped = Path(policylang.__file__).parent / "rulesets" / "default.policy"
    commands, operands = policy_seeds(shipped)
    assert len(commands) > 100
    assert "rm" in operands


def test_the_budget_an_invariant_leaves_goes_to_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (a skipped or early-failing invariant had left its share unused)
    given: list[float] = []

    def quick(invariant: object, subjects: object, strategy: object, *,
              budget_s: float, **_: object) -> campaign.PropertyReport:
        given.append(budget_s)
        return campaign.PropertyReport(name="x", examples=0, seconds=0.0, skipped="quick")

    monkeypatch.setattr(campaign, "run_property", quick)
    subjects = campaign.Subjects(evaluate=campaign.load_callable(f"{TOYS}:always_ask"))
    campaign.run_campaign(subjects, names=["totality", "determinism", "fail-closed"],
                          budget_s=30.0)
    assert given[0] == pytest.approx(10.0, abs=0.5)
    assert given[1] == pytest.approx(15.0, abs=0.5)
    assert given[2] == pytest.approx(30.0, abs=0.5)
