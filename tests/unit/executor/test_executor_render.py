"""The model-facing and display views of a result: header, merge, budget, spill file."""

from __future__ import annotations

import pathlib

from policylang.executor import ExecResult, merged_text, render_for_display, render_for_model, run
from policylang.executor.render import default_spill_dir

from .conftest import decision


def _run(command: str, cwd: str, **kwargs: object) -> ExecResult:
    return run(command, decision=decision(command), cwd=cwd, **kwargs)  # type: ignore[arg-type]


def test_header_and_merged_body(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("echo a; sleep 0.02; echo b >&2; sleep 0.02; echo c", workdir)
    view = render_for_model(res, spill_dir=str(tmp_path / "spill"))
    head, body = view.text.split("\n", 1)
    assert head == f"[exit 0, {res.duration_ms}ms]"
    assert body == "a\nb\nc"
    assert not view.is_error
    assert view.spill_path is None
    assert not (tmp_path / "spill").exists()


def test_nonzero_exit_is_an_error_result(workdir: str) -> None:
    view = render_for_model(_run("echo oops >&2; exit 2", workdir))
    assert view.text.startswith("[exit 2, ")
    assert view.text.endswith("\noops")
    assert view.is_error


def test_no_output_is_said(workdir: str) -> None:
    assert render_for_model(_run("true", workdir)).text.endswith("\n(no output)")


def test_timeout_says_it_was_killed_and_shows_what_came_before(workdir: str) -> None:
    res = _run("echo before; sleep 30", workdir, timeout_s=0.3)
    text = render_for_model(res).text
    lines = text.splitlines()
    assert lines[0] == f"[timed out, {res.duration_ms}ms]"
    assert "killed after 0.3 s" in lines[1]
    assert lines[-1] == "before"
    assert render_for_model(res).is_error


def test_signal_header(workdir: str) -> None:
    text = render_for_model(_run("kill -9 $$", workdir)).text
    assert text.startswith("[killed by SIGKILL, ")


def test_long_output_keeps_head_and_tail_and_spills(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("seq 1 10000", workdir)
    spill = tmp_path / "spill"
    view = render_for_model(res, spill_dir=str(spill))
    lines = view.text.splitlines()
    assert lines[1] == "1"  # head right after the header
    assert lines[-1] == "10000"  # tail at the end
    assert view.spill_path is not None
    assert pathlib.Path(view.spill_path).parent == spill
    assert pathlib.Path(view.spill_path).read_text() == res.stdout
    note = next(line for line in lines if "output truncated" in line)
    assert note.startswith(f"[output truncated: {view.omitted_lines:,} lines omitted (")
    assert f"full output saved to {view.spill_path}; use grep or a file read" in note
    kept = [line for line in lines[1:] if line.isdigit()]
    assert len(kept) + view.omitted_lines == 10000
    assert len(kept) <= 2000


def test_byte_budget_applies_to_one_huge_line(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("head -c 300000 /dev/zero | tr '\\0' x", workdir)
    view = render_for_model(res, spill_dir=str(tmp_path))
    assert len(view.text.encode()) <= 50_000
    assert view.spill_path is not None
    assert "0 lines omitted (" in view.text  # nothing but bytes of one line was omitted


def test_model_text_stays_within_budget(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("seq 1 200000", workdir)
    model = render_for_model(res, spill_dir=str(tmp_path))
    assert len(model.text.encode()) <= 50_000
    assert len(model.text.splitlines()) <= 2000 + 3


def test_capture_cap_is_noted(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("head -c 5000 /dev/zero | tr '\\0' y", workdir, max_stream_bytes=100)
    text = render_for_model(res, spill_dir=str(tmp_path)).text
    assert "stdout capture capped: kept the first 75 and the last 25 of 5,000 bytes" in text
    assert "\n[... 4,900 bytes of stdout not kept ...]\n" in text


def test_the_end_of_a_capped_stream_reaches_the_model(workdir: str,
                                                      tmp_path: pathlib.Path) -> None:
    res = _run("seq 1 300000; echo FAILED: the last line >&2", workdir, max_stream_bytes=100_000)
    text = render_for_model(res, spill_dir=str(tmp_path)).text
    assert text.endswith("300000\nFAILED: the last line")
    assert "bytes of stdout not kept ...]" in merged_text(res)


def test_display_view_is_short_and_points_to_spill(workdir: str, tmp_path: pathlib.Path) -> None:
    res = _run("seq 1 300000", workdir)
    model = render_for_model(res, spill_dir=str(tmp_path))
    display = render_for_display(res, spill_path=model.spill_path)
    assert len(display.text.encode()) <= 30_000
    assert model.spill_path is not None
    assert model.spill_path in display.text
    assert len(list(tmp_path.iterdir())) == 1  # the display view wrote nothing


def test_unwritable_spill_dir_still_renders(workdir: str, tmp_path: pathlib.Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = _run("seq 1 5000", workdir)
    view = render_for_model(res, spill_dir=str(blocker / "sub"))
    assert view.spill_path is None
    assert "the full output was not saved" in view.text


def test_merge_keeps_multibyte_characters_split_across_reads(workdir: str) -> None:
    command = r"printf '\xc3'; sleep 0.05; printf 'x\n' >&2; sleep 0.05; printf '\xa9\n'"
    res = _run(command, workdir)
    assert merged_text(res) == "x\n\u00e9\n"


def test_default_spill_dir_is_under_the_temp_dir() -> None:
    assert default_spill_dir().endswith("policylang-output")


def test_the_display_view_escapes_terminal_controls(workdir: str, tmp_path: pathlib.Path) -> None:
    # review J7: output that clears the screen and draws another text must not do so in a UI
    res = _run(r"printf 'ok\033[2J\033[Hfake: all tests passed\033]0;title\007\n'", workdir)
    display = render_for_display(res)
    assert "\x1b" not in display.text
    assert "\x07" not in display.text
    assert "ok\\x1b[2J\\x1b[Hfake: all tests passed" in display.text
    # the model's view keeps the bytes the command printed
    assert "\x1b[2J" in render_for_model(res, spill_dir=str(tmp_path)).text


def test_escapes_count_against_the_display_budget(workdir: str) -> None:
    res = _run("head -c 200000 /dev/zero | tr '\\0' '\\033'", workdir)
    display = render_for_display(res)
    assert len(display.text.encode()) <= 30_000
    assert "\\x1b" in display.text


def test_a_spill_dir_others_may_write_is_not_used(workdir: str, tmp_path: pathlib.Path) -> None:
    # review J8: the default spill dir has a fixed name in a shared temp dir; another user
    # who made it first could swap the file the model is told to read
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    res = _run("seq 1 5000", workdir)
    view = render_for_model(res, spill_dir=str(shared))
    assert view.spill_path is None
    assert "the full output was not saved" in view.text
    assert list(shared.iterdir()) == []


def test_a_spill_dir_that_is_a_symlink_is_not_used(workdir: str, tmp_path: pathlib.Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    res = _run("seq 1 5000", workdir)
    assert render_for_model(res, spill_dir=str(link)).spill_path is None
    assert list(real.iterdir()) == []
    # the same directory, given as itself, is private and used
    assert render_for_model(res, spill_dir=str(real)).spill_path is not None
