"""Compiled-policy snapshots: reused only while they describe the same policy."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from policylang.engine import policy as policy_module
from policylang.engine import snapshot
from policylang.engine.cases import read_cases
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy, shipped_ruleset
from policylang.errors import RulesetError
from policylang.rules.files import SourceInput, digest_text

GOLDEN = Path(__file__).parents[2] / "golden" / "commands" / "default.tsv"

MAIN = """\
policy "team" version "1"
include "base/common.policy"
arity-file "arity.toml"
default ask
readonly tool **
expect allow "tool x" retention requery
"""
COMMON = 'deny frob ** reason "frobbing is not allowed"\n'
ARITY = '[arity]\n"tool" = 2\n'


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("POLICYLANG_CACHE_DIR", str(folder))
    return folder / "snapshots"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "base").mkdir()
    (tmp_path / "team.policy").write_text(MAIN)
    (tmp_path / "base" / "common.policy").write_text(COMMON)
    (tmp_path / "arity.toml").write_text(ARITY)
    return tmp_path / "team.policy"


def _refuse(layers: object) -> object:
    """Stands in for compiling: a load that succeeds must have used a snapshot."""
    raise AssertionError("compiled from text although a snapshot was current")


def _verdict(policy: Policy, command: str) -> str:
    return policy.evaluate_in(command, EXPECTATION_CONTEXT, approvals=False).verdict.value


def test_second_load_uses_the_snapshot(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_policy(files)
    written = snapshot.snapshot_path([str(files)])
    assert written.is_file()
    assert written.parent == snapshot.cache_dir()
    assert not (files.parent / "__pycache__").exists()  # never beside the policy (review L1)
    monkeypatch.setattr(policy_module, "_compile", _refuse)
    second = load_policy(files)
    assert second.compiled == first.compiled
    assert _verdict(second, "frob now") == "deny"
    assert _verdict(second, "tool x") == "allow"
    assert second.compiled.sources == first.compiled.sources


@pytest.mark.parametrize(
    ("changed", "text", "command", "verdict"),
    [
        ("team.policy", MAIN.replace("readonly tool **", "deny tool **"), "tool y", "deny"),
        ("base/common.policy", "allow frob **\n", "frob now", "allow"),
        ("arity.toml", '[arity]\n"tool" = 3\n', "tool a b", "allow"),
    ],
)
def test_a_changed_input_is_compiled_again(
    files: Path, changed: str, text: str, command: str, verdict: str
) -> None:
    load_policy(files, check=False)
    (files.parent / changed).write_text(text)
    reloaded = load_policy(files, check=False)
    assert _verdict(reloaded, command) == verdict
    if changed == "arity.toml":
        assert reloaded.compiled.arity.prefix(["tool", "a", "b", "c"]) == ("tool", "a", "b")


def test_an_include_swapped_by_a_symbolic_link_is_noticed(files: Path) -> None:
    other = files.parent / "other.policy"
    other.write_text("allow frob **\n")
    load_policy(files)
    common = files.parent / "base" / "common.policy"
    common.unlink()
    common.symlink_to(other)
    assert _verdict(load_policy(files), "frob x") == "allow"


def test_changed_code_makes_a_snapshot_stale(
    files: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    load_policy(files)
    monkeypatch.setattr(snapshot, "code_digest", lambda: "another build")
    caplog.set_level(logging.INFO, logger="policylang.engine.snapshot")
    assert snapshot.read([str(files)]) is None
    assert "policylang's code or the tree-sitter bindings changed" in caplog.text


def test_a_damaged_snapshot_is_reported_and_compiled_around(
    files: Path, caplog: pytest.LogCaptureFixture
) -> None:
    load_policy(files)
    path = snapshot.snapshot_path([str(files)])
    blob = path.read_bytes()
    path.write_bytes(blob[: len(blob) - 200])
    with caplog.at_level(logging.WARNING, logger="policylang.engine.snapshot"):
        policy = load_policy(files)
    assert "ignoring damaged policy snapshot" in caplog.text
    assert _verdict(policy, "frob x") == "deny"
    assert snapshot.read([str(files)]) is not None  # rewritten whole


def test_group_writable_snapshot_is_ignored(files: Path, caplog: pytest.LogCaptureFixture) -> None:
    load_policy(files)
    path = snapshot.snapshot_path([str(files)])
    os.chmod(path, 0o664)
    with caplog.at_level(logging.WARNING, logger="policylang.engine.snapshot"):
        assert snapshot.read([str(files)]) is None
    assert "writable by others" in caplog.text
    os.chmod(path, 0o644)
    os.chmod(path.parent, 0o777)
    assert snapshot.read([str(files)]) is None
    os.chmod(path.parent, 0o755)
    assert snapshot.read([str(files)]) is not None


def test_switched_off_by_the_environment(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLICYLANG_SNAPSHOTS", "0")
    load_policy(files)
    assert not snapshot.cache_dir().exists()
    monkeypatch.delenv("POLICYLANG_SNAPSHOTS")
    load_policy(files, snapshot=False)
    assert not snapshot.cache_dir().exists()


def test_a_missing_home_is_not_made(
    files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "gone" / "home"
    monkeypatch.delenv("POLICYLANG_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    policy = load_policy(files)
    assert _verdict(policy, "frob now") == "deny"
    assert not (tmp_path / "gone").exists()
    home.mkdir(parents=True)
    load_policy(files)
    assert snapshot.snapshot_path([str(files)]).is_file()
    assert snapshot.cache_dir().is_relative_to(home)


def test_an_unchecked_snapshot_does_not_skip_the_expectations(files: Path) -> None:
    files.write_text(MAIN + 'expect deny "tool z"\n')
    load_policy(files, check=False)
    assert snapshot.read([str(files)]) is not None
    with pytest.raises(RulesetError, match="tool z"):
        load_policy(files)


def test_warnings_are_logged_again_from_a_snapshot(
    files: Path, caplog: pytest.LogCaptureFixture
) -> None:
    files.write_text(MAIN + "readonly tool **\n")  # a duplicate rule warns
    with caplog.at_level(logging.WARNING):
        load_policy(files)
    first = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert first, "the duplicate rule should warn"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        load_policy(files)
    again = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert again == first


def test_layers_and_names_key_the_snapshot(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = files.parent / "user.policy"
    user.write_text("allow frob --dry-run\n")
    alone = load_policy(files)
    layered = load_policy(files, extra=[user])
    assert _verdict(alone, "frob --dry-run") == "deny"
    assert layered.compiled.sources != alone.compiled.sources
    monkeypatch.chdir(files.parent)
    relative = load_policy("team.policy")
    assert "team.policy" in relative.compiled.sources
    assert snapshot.snapshot_path(["team.policy"]) != snapshot.snapshot_path([str(files)])


def test_the_shipped_policy_decides_the_same_from_its_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = shipped_ruleset()
    for name in ("default.policy", "common.policy"):
        (tmp_path / name).write_text((shipped.parent / name).read_text())
    copy = str(tmp_path / "default.policy")
    fresh = load_policy(copy, snapshot=False)
    snapshot.write([copy], fresh.compiled, _inputs(tmp_path), (), checked=True)
    monkeypatch.setattr(policy_module, "_compile", _refuse)
    from_snapshot = load_policy(copy)  # compiling is refused: this is the snapshot
    assert from_snapshot.compiled == fresh.compiled
    cases = read_cases(GOLDEN)
    assert len(cases) >= 300
    for case in cases:
        expected = fresh.evaluate_in(case.command, EXPECTATION_CONTEXT, approvals=False)
        got = from_snapshot.evaluate_in(case.command, EXPECTATION_CONTEXT, approvals=False)
        assert got == expected, case.command


def _inputs(folder: Path) -> list[SourceInput]:
    return [
        SourceInput(path=str(p), resolved=str(p.resolve()), sha256=digest_text(p.read_text()))
        for p in (folder / "default.policy", folder / "common.policy")
    ]


def test_old_snapshots_of_a_file_are_pruned(files: Path) -> None:
    # every set of layers has its own snapshot; the folder keeps only the newest few
    folder = snapshot.cache_dir()
    for index in range(snapshot.KEEP + 4):
        user = files.parent / f"user{index}.policy"
        user.write_text(f"allow frob --n{index}\n")
        load_policy(files, extra=[user])
        written = snapshot.snapshot_path([str(files), str(user)])
        os.utime(written, (1_000_000 + index, 1_000_000 + index))  # a distinct age each
    (folder / "other.policy.0123456789abcdef.policylang-snapshot").write_bytes(b"x")
    kept = sorted(p.name for p in folder.glob(f"team.policy.*{snapshot.SUFFIX}"))
    assert len(kept) == snapshot.KEEP
    # the newest stay, and another file's snapshot is not touched
    newest = snapshot.snapshot_path([str(files), str(files.parent / "user11.policy")])
    assert newest.name in kept
    assert (folder / "other.policy.0123456789abcdef.policylang-snapshot").exists()


class _RunsAShell:
    """What a forged snapshot holds: an object whose unpickling calls `os.system`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def _forge(files: Path, payload: object) -> Path:
    """A snapshot with a header that passes every check (anyone can compute the digests:
    the agent can too) and `payload` pickled after it."""
    import json
    import pickle

    load_policy(files)
    path = snapshot.snapshot_path([str(files)])
    blob = path.read_bytes()
    header = blob[: blob.index(b"\n") + 1]
    json.loads(header[len(b"policylang-snapshot ") :])  # a real header, reused as is
    path.write_bytes(header + pickle.dumps(payload))
    return path


def test_a_forged_snapshot_runs_no_code(
    files: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # review L1: the header checks tell a stale snapshot, not a forged one; unpickling a
    # planted one ran its code in the next process that loaded the policy
    marker = tmp_path / "ran"
    _forge(files, _RunsAShell(marker))
    with caplog.at_level(logging.WARNING, logger="policylang.engine.snapshot"):
        policy = load_policy(files)
    assert not marker.exists()
    assert "ignoring damaged policy snapshot" in caplog.text
    assert "may not load `posix.system`" in caplog.text
    assert _verdict(policy, "frob x") == "deny"  # compiled from the text instead


@pytest.mark.parametrize(
    "payload",
    [
        ("subprocess", "Popen"),  # a class, but not policylang's
        ("policylang.compiler.tree", "os.system"),  # reached through a module attribute
        ("policylang.engine.policy", "load_policy"),  # policylang's, but a function
    ],
    ids=["foreign-class", "dotted-name", "own-function"],
)
def test_the_snapshot_unpickler_builds_only_policylang_data(payload: tuple[str, str]) -> None:
    import pickle

    module, name = payload
    with pytest.raises(pickle.UnpicklingError):
        snapshot._SnapshotUnpickler(__import__("io").BytesIO(b"")).find_class(module, name)


def test_a_snapshot_regex_may_not_carry_debug_flags() -> None:
    # review M8: `re.DEBUG` in a forged snapshot printed onto the hook's stdout
    import pickle
    import re

    compile_ = snapshot._SnapshotUnpickler(__import__("io").BytesIO(b"")).find_class(
        "re", "_compile"
    )
    assert compile_("a+", re.DOTALL).fullmatch("aa")
    with pytest.raises(pickle.UnpicklingError):
        compile_("a+", re.DEBUG)


def test_the_code_digest_covers_the_data_the_compiler_reads() -> None:
    """review AX9: a change to the shipped arity.toml left snapshots with the old arities,
    so a narrowed "always allow" prefix was still offered wide."""
    package = Path(snapshot.__file__).resolve().parents[1]
    digested = {p.relative_to(package).as_posix() for p in snapshot.digested_files(package)}
    assert {"compiler/arity.toml", "rules/grammar.lark", "engine/evaluate.py"} <= digested
    assert not any(name.endswith((".pyc", ".pickle")) for name in digested)


def test_a_snapshot_lazy_regex_may_not_carry_debug_flags() -> None:
    """The policy's glob regexes are `LazyRegex` objects, built by their constructor when a
    snapshot is read: the constructor refuses what `_compile_plain` refuses (review M8)."""
    import io
    import pickle
    import re

    from policylang.rules.globs import LazyRegex

    plain = pickle.dumps(LazyRegex("a+", re.DOTALL))
    assert snapshot._SnapshotUnpickler(io.BytesIO(plain)).load() == LazyRegex("a+", re.DOTALL)
    evil = pickle.dumps((LazyRegex, ("a+", int(re.DEBUG))))  # the class and its arguments
    cls, args = snapshot._SnapshotUnpickler(io.BytesIO(evil)).load()
    with pytest.raises(ValueError, match="unexpected flags"):
        cls(*args)


def test_a_snapshot_loads_without_compiling_the_glob_regexes(tmp_path: Path) -> None:
    """Start-up: reading a snapshot compiles no glob regex; the first evaluation compiles
    only what it tries, and decides as a policy compiled from the text does."""
    import re

    files = tmp_path / "p.policy"
    files.write_text(
        "protect read-write **/.env* deny\nprotect read-write ~/.ssh/** deny\nallow cat\n"
    )
    from_text = load_policy(files)  # compiled from the text; writes the snapshot
    compiled: list[str] = []
    original = re._compile  # type: ignore[attr-defined]

    def counting(pattern: object, flags: object) -> object:
        compiled.append(str(pattern))
        return original(pattern, flags)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(re, "_compile", counting)
        re.purge()
        policy = load_policy(files)
        assert not any(".env" in pattern for pattern in compiled), compiled
        for command in ("cat .env", "cat ~/.ssh/id_rsa", "cat README", "cat a/.env.local"):
            assert _verdict(policy, command) == _verdict(from_text, command)
        assert _verdict(policy, "cat .env") == "deny"
        assert any(".env" in pattern for pattern in compiled)  # compiled once tried


def test_a_forged_snapshot_cannot_set_a_lazy_regex_s_slots_directly() -> None:
    """Review BF5: NEWOBJ + BUILD skipped the constructor, and its flag check."""
    import io

    forged = (
        b"\x80\x02cpolicylang.rules.globs\nLazyRegex\nq\x00)\x81q\x01N}q\x02("
        b"X\x07\x00\x00\x00patternq\x03X\x02\x00\x00\x00a+q\x04"
        b"X\x05\x00\x00\x00flagsq\x05K\x80u\x86q\x06b."
    )
    with pytest.raises(TypeError, match="pattern and flags only"):
        snapshot._SnapshotUnpickler(io.BytesIO(forged)).load()


def test_an_enum_member_stored_by_name_is_read_back() -> None:
    """review DU8: some Python 3.11 releases (3.11.2) store an enum member as
    `getattr(cls, name)`, which the unpickler refused, so every snapshot there was dropped."""
    import copyreg
    import io
    import pickle

    from policylang.decision import Verdict

    table = copyreg.dispatch_table.copy()
    table[Verdict] = lambda member: (getattr, (type(member), member.name))
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump((Verdict.DENY, Verdict.ALLOW))
    assert b"getattr" in buffer.getvalue()
    read = snapshot._SnapshotUnpickler(io.BytesIO(buffer.getvalue())).load()
    assert read == (Verdict.DENY, Verdict.ALLOW)


@pytest.mark.parametrize(
    ("owner", "name"),
    [
        ("policylang.decision:Verdict", "__class__"),  # an attribute, not a member
        ("policylang.decision:Verdict", "at_least"),  # a method
        ("policylang.decision:Reason", "render"),  # not an enum at all
        ("policylang.decision:Verdict", 3),
    ],
)
def test_getattr_in_a_snapshot_reaches_enum_members_only(owner: str, name: object) -> None:
    import importlib
    import io
    import pickle

    module, _, cls = owner.partition(":")
    unpickler = snapshot._SnapshotUnpickler(io.BytesIO(b""))
    lookup = unpickler.find_class("builtins", "getattr")
    with pytest.raises(pickle.UnpicklingError):
        lookup(getattr(importlib.import_module(module), cls), name)
