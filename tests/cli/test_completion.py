"""Shell completion: rule names for `ginref rules NAME` and --rules, knobs for --set, files for SHEET."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from ginref.cli import cli
from ginref.rules import KNOB_NAMES, RULE_NAMES


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    shell = ShellComplete(cli, {}, "ginref", "_GINREF_COMPLETE")
    return [(item.type, item.value) for item in shell.get_completions(args, incomplete)]


@pytest.mark.parametrize(
    ("args", "incomplete", "values"),
    [
        (["rules"], "hol", ["hollywood"]),
        (["rules"], "HO", ["hollywood", "hoyle"]),
        (["rules"], "t", ["tallynight", "tournament"]),
        (["analyze", "--rules"], "ok", ["oklahoma"]),
        (["game", "--rules"], "st", ["standard", "straight"]),
        (["knock", "--set"], "gin_b", ["gin_bonus="]),
        (["rules", "standard", "--set"], "tie_policy=", ["tie_policy=knocker", "tie_policy=no_score",
                                                       "tie_policy=undercut"]),
        (["score", "--set"], "layoff_on_gin=t", ["layoff_on_gin=true"]),
        (["score", "--set"], "gin_bonus=", []),      # a number: nothing to list
        (["score", "--set"], "nosuch=", []),
    ],
)
def test_names_complete(args: list[str], incomplete: str, values: list[str]) -> None:
    assert complete(args, incomplete) == [("plain", v) for v in values]


def test_every_rule_name_and_knob_completes_from_nothing() -> None:
    assert [v for _, v in complete(["rules"], "")] == list(RULE_NAMES)
    assert [v for _, v in complete(["analyze", "--set"], "")] == [f"{k}=" for k in KNOB_NAMES]


@pytest.mark.parametrize(
    "args",
    [["game"], ["game", "--rules-file"], ["convert"], ["convert", "x.gin", "-o"]],
)
def test_paths_complete_as_files(args: list[str]) -> None:
    assert complete(args, "sam") == [("file", "sam")]


def test_the_installed_program_answers_bash() -> None:
    env = {**os.environ, "_GINREF_COMPLETE": "bash_complete", "COMP_WORDS": "ginref rules hol",
           "COMP_CWORD": "2"}
    done = subprocess.run([sys.executable, "-m", "ginref"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["plain,hollywood"]


@pytest.mark.parametrize("command", ["verify", "adjudicate"])
def test_record_arguments_complete_files(command: str, tmp_path: Path) -> None:
    from click.shell_completion import ShellComplete

    (tmp_path / "games.jsonl").write_text("")
    completion = ShellComplete(cli, {}, "ginref", "_GINREF_COMPLETE")
    items = completion.get_completions([command], str(tmp_path / "ga"))
    assert [item.type for item in items] == ["file"]


def bash_session(typed: str, tmp_path: Path) -> str:
    """What an interactive bash shows on its terminal when ``typed`` is typed into it, keys
    and all, with the script of ``ginref completion bash`` loaded as the README says.

    ``ginref`` itself is then a shell function that prints its arguments (``ARGS:<a><b>``), so
    the line as completed can be read back; the completions come from the installed program."""
    import pty
    import select
    import shutil

    program = shutil.which("ginref", path=os.path.dirname(sys.executable))
    if program is None or shutil.which("bash") is None:
        pytest.skip("needs bash and the installed ginref program")
    script = subprocess.run([program, "completion", "bash"], capture_output=True, text=True, check=True)
    echo = "ginref() { printf 'ARGS:'; printf '<%s>' \"$@\"; echo; }\nPS1='$ '\n"
    (tmp_path / "rc").write_text(script.stdout + echo)
    (tmp_path / "inputrc").write_text("set bell-style none\nset show-all-if-ambiguous on\n"
                                      "set completion-query-items 0\nset page-completions off\n")
    path = f"{os.path.dirname(program)}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    env = {"PATH": path, "HOME": str(tmp_path), "INPUTRC": str(tmp_path / "inputrc"),
           "TERM": "dumb", "LANG": "C.UTF-8"}
    master, slave = pty.openpty()
    shell = subprocess.Popen(["bash", "--noprofile", "--rcfile", str(tmp_path / "rc"), "-i"], stdin=slave,
                             stdout=slave, stderr=slave, env=env, cwd=tmp_path, start_new_session=True)
    os.close(slave)
    seen, waiting = b"", True
    try:
        while select.select([master], [], [], 60)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if waiting and b"$ " in seen:  # the first prompt: readline reads the keys from here on
                os.write(master, typed.encode() + b"\nexit\n")
                waiting = False
    finally:
        shell.kill()
        shell.wait(timeout=60)
        os.close(master)
    return seen.decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ("ginref rules --set tie\tknocker", "<rules><--set><tie_policy=knocker>"),  # no space after the =
        ("ginref rules --set tie_policy=no\t", "<rules><--set><tie_policy=no_score>"),
        ("ginref score --set layoff_on_gin=t\t", "<score><--set><layoff_on_gin=true>"),
        ("ginref rules --set tie_policy=\tu\t", "<rules><--set><tie_policy=undercut>"),
        ("ginref rules hol\t", "<rules><hollywood>"),
        ("ginref analyze --rules=okl\t", "<analyze><--rules=oklahoma>"),
    ],
)
def test_a_real_bash_completes_knobs_and_their_values(typed: str, line: str, tmp_path: Path) -> None:
    """bash splits words at `=` (COMP_WORDBREAKS): `--set tie_policy=<TAB>` once offered
    nothing and `--set tie<TAB>` left a space after the `=`."""
    shown = bash_session(typed, tmp_path)
    said = [text.split("ARGS:", 1)[1].strip() for text in shown.splitlines() if "ARGS:" in text]
    assert said == [line], shown


def test_a_real_bash_lists_a_knobs_values(tmp_path: Path) -> None:
    shown = bash_session("ginref rules --set tie_policy=\t\x15", tmp_path)  # Ctrl-U: forget the line
    listed = shown.split("tie_policy=", 1)[1]
    assert all(value in listed for value in ("knocker", "no_score", "undercut")), shown


@pytest.mark.parametrize(
    ("value", "typed", "reply"),
    [
        ("tie_policy=", "tie", "tie_policy="),
        ("tie_policy=knocker", "tie_policy=", "knocker"),
        ("tie_policy=no_score", "tie_policy=no", "no_score"),
        ("oklahoma", "--rules=okl", "oklahoma"),      # click completes the value alone
        ("hollywood", "hol", "hollywood"),
        ("samples/x:y.gin", "samples/x:", "y.gin"),    # `:` breaks words in bash too
        ("other", "tie_policy=", "other"),             # never cut what does not start so
    ],
)
def test_the_reply_replaces_the_word_readline_completes(value: str, typed: str, reply: str) -> None:
    from ginref.cli.completing import WORD_BREAKS, replacing_word

    assert replacing_word(value, typed, WORD_BREAKS) == reply
