"""What a new user trips over: empty input, usage errors, suggestions, help that tells the
truth about defaults and extras, completion, and exit codes for files that cannot be read.

Issues 23 and 25: every case here failed before the change it tests.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.cli.app import did_you_mean
from tests.support.terminal import read_until_closed

ROOT = Path(__file__).resolve().parents[2]
HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
DEFENDER = "7H 8H 3H QH 2C 2D 2S 9S KD AC"
KNOCKER = "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D"
RECORD = str(ROOT / "samples" / "records" / "knock-layoffs.gin")
NO_RULES_SET = {"GINREF_RULES": None}


def run(
    args: list[str], stdin: str | None = None, env: dict[str, str | None] | None = None
) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, input=stdin, env={**NO_RULES_SET, **(env or {})},
                                catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def one_paragraph(text: str) -> str:
    return " ".join(text.split())


# -- empty input is never silent (25) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "stdin", "said"),
    [
        (["analyze", "-"], "", "Error: no hands on stdin"),
        (["analyze", "-", "--json"], "", "Error: no hands on stdin"),
        (["analyze", "-"], "# a comment\n\n   \n", "Error: no hands on stdin"),
        (["game", "-"], "", "Error: no hands on stdin"),
        (["game", "-", "--players", "Ann,Bo"], "", "Error: no hands on stdin"),
        (["game", "-"], "players: Ann Bo\nrules: hoyle\n", "Error: no hands on stdin"),
        (["convert", "-"], "", "Error: no records found in standard input"),
        (["convert", "-", "--to", "json"], "# only a comment\n", "Error: no records found in standard input"),
        (["adjudicate", "-"], "", "Error: no records found in standard input"),
        (["verify", "-"], "", "Error: no records found in standard input"),
    ],
)
def test_input_without_hands_or_records_says_so_and_exits_3(args: list[str], stdin: str, said: str) -> None:
    code, out, err = run(args, stdin)
    assert code == 3
    assert err.splitlines()[0].startswith(said)
    assert "no hands yet" not in out


@pytest.mark.parametrize(("args", "name", "said"), [
    (["game"], "empty.sheet", "Error: no hands in {path}"),
    (["convert"], "empty.gin", "Error: no records found in {path}"),
    (["convert", "--to", "jsonl"], "comments.gin", "Error: no records found in {path}"),
])
def test_a_file_without_hands_or_records_is_named(
    args: list[str], name: str, said: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    path.write_text("# nothing here yet\n" if name.startswith("comments") else "")
    code, _, err = run([*args, str(path)])
    assert (code, err.splitlines()[0].split(" (")[0]) == (3, said.format(path=path))


def test_converting_nothing_makes_no_output_file(tmp_path: Path) -> None:
    (tmp_path / "empty.gin").write_text("")
    code, _, _ = run(["convert", str(tmp_path / "empty.gin"), "-o", str(tmp_path / "out.json")])
    assert code == 3 and not (tmp_path / "out.json").exists()


def test_stdin_with_a_hand_still_answers() -> None:
    code, out, err = run(["analyze", "-"], f"# one hand\n{HAND}\n")
    assert (code, err) == (0, "") and "line 2:" in out


# -- one error, one line (25) ---------------------------------------------------------------------

CHOICES = "`ginref rules` lists every rule set and its aliases"


@pytest.mark.parametrize(
    ("args", "env", "lines"),
    [
        (["analyze", "--rules", "nope", HAND], {}, [
            f"Error: Invalid value for '--rules': unknown rules 'nope'; {CHOICES}"]),
        (["analyze", HAND], {"GINREF_RULES": "nope"}, [
            f"Error: Invalid value for '--rules' (from GINREF_RULES): unknown rules 'nope'; {CHOICES}"]),
        (["verify", "--jobs", "0", "x"], {}, [
            "Error: Invalid value for '--jobs' / '-j': 0 is not in the range x>=1."]),
        (["analyze"], {}, ["Error: Missing argument 'HAND'.", "Try 'ginref analyze --help' for help."]),
        (["analyze", "--rules"], {}, [
            "Error: Option '--rules' requires an argument.", "Try 'ginref analyze --help' for help."]),
        (["score", "--knocker", KNOCKER], {}, [
            "Error: Missing option '--defender'.", "Try 'ginref score --help' for help."]),
        (["rules", "a", "b"], {}, [
            "Error: Got unexpected extra argument (b)", "Try 'ginref rules --help' for help."]),
        (["completion"], {}, [
            "Error: Missing argument 'SHELL'. Choose from: bash, zsh, fish",
            "Try 'ginref completion --help' for help."]),
        (["completion", "ksh"], {}, [
            "Error: Invalid value for 'SHELL': 'ksh' is not one of 'bash', 'zsh', 'fish'."]),
    ],
)
def test_a_usage_error_is_one_line_and_where_the_help_is(
    args: list[str], env: dict[str, str | None], lines: list[str]
) -> None:
    code, out, err = run(args, env=env)
    assert (code, out, err.splitlines()) == (2, "", lines)


def test_the_env_var_is_named_only_when_it_gave_the_value() -> None:
    _, _, err = run(["analyze", "--rules", "nope", HAND], env={"GINREF_RULES": "hoyle"})
    assert "GINREF_RULES" not in err and "Invalid value for '--rules': unknown rules 'nope'" in err


def test_the_program_shows_the_same_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "ginref", "analyze", "--rules", "nope", HAND],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={k: v for k, v in os.environ.items() if k != "GINREF_RULES"})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"Error: Invalid value for '--rules': unknown rules 'nope'; {CHOICES}"]


# -- did you mean, only when close (25) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        (["analyze", "--jsn", HAND], "Error: No such option '--jsn'. Did you mean '--json'?"),
        (["verify", "--bogus", "x"], "Error: No such option '--bogus'."),
        (["verify", "--jso", "x"], "Error: No such option '--jso'. Did you mean '--json'?"),
        (["verify", "--fail-fats", "x"], "Error: No such option '--fail-fats'. Did you mean '--fail-fast'?"),
        (["game", "-", "--hollywod"], "Error: No such option '--hollywod'. Did you mean '--hollywood'?"),
        (["--colour", "rules"], "Error: No such option '--colour'. Did you mean '--color'?"),
        (["analyze", "--zzz", HAND], "Error: No such option '--zzz'."),
        (["anlyze", HAND], "Error: No such command 'anlyze'. Did you mean 'analyze'?"),
        (["verfiy", "x"], "Error: No such command 'verfiy'. Did you mean 'verify'?"),
        (["rule"], "Error: No such command 'rule'. Did you mean 'rules'?"),
        (["foo"], "Error: No such command 'foo'."),
        (["sore"], "Error: No such command 'sore'. Did you mean 'score'?"),
    ],
)
def test_suggestions_only_when_close(args: list[str], first_line: str) -> None:
    code, _, err = run(args)
    assert code == 2
    assert err.splitlines()[0] == first_line
    assert len(err.splitlines()) == 2 and err.splitlines()[1].startswith("Try 'ginref")


@pytest.mark.parametrize(
    ("typed", "names", "said"),
    [
        ("--jsonn", ["--json", "--jsonl", "--set"], " Did you mean '--json' or '--jsonl'?"),
        ("--JSON", ["--json", "--jsonl"], " Did you mean '--json'?"),
        ("--glpyhs", ["--glyphs"], " Did you mean '--glyphs'?"),          # two letters swapped: one edit
        ("--overide-rule", ["--override-rules"], " Did you mean '--override-rules'?"),
        ("--set", ["--jsn"], ""),
        ("--" + "x" * 10_000, ["--json"], ""),
        ("adjucate", ["adjudicate", "advise"], " Did you mean 'adjudicate'?"),
    ],
)
def test_did_you_mean(typed: str, names: list[str], said: str) -> None:
    assert did_you_mean(typed, names) == said


# -- help says what an option needs and which rules apply (25, 23) --------------------------------


@pytest.mark.parametrize(("command", "option", "extra"),
                         [("game", "--plot", "plot"), ("verify", "--scheduler", "dask")])
def test_help_says_which_extra_an_option_needs(command: str, option: str, extra: str) -> None:
    _, out, _ = run([command, "--help"])
    lines = [line.strip() for line in out.splitlines()]
    assert f"pip install 'ginref[{extra}]'" in lines  # whole, on a line of its own
    assert f"needs the {extra} extra" in one_paragraph(out.split("Options:")[1]).lower()
    assert any(line.startswith(f"{option} needs") for line in lines)


@pytest.mark.parametrize(
    ("command", "environment", "default"),
    [
        ("analyze", None, "[default: standard] [env var: GINREF_RULES]"),
        ("analyze", "oklahoma", "[default: oklahoma, from GINREF_RULES]"),
        ("advise", None, "[default: standard; with --at: the rules the record names]"),
        ("advise", "hoyle", "[default: hoyle, from GINREF_RULES, with --at too]"),
        ("game", None, "[default: the sheet's `rules:` line, else standard] [env var: GINREF_RULES]"),
        ("game", "oklahoma", "[default: the sheet's `rules:` line, else oklahoma, from GINREF_RULES]"),
        ("verify", None, "[default: the rules each record names] [env var: GINREF_RULES]"),
        ("verify", "oklahoma",
         "[default: the rules each record names; with --override-rules: oklahoma, from GINREF_RULES]"),
        ("adjudicate", "oklahoma",
         "[default: the rules each record names; with --override-rules: oklahoma, from GINREF_RULES]"),
    ],
)
def test_rules_help_says_what_applies_and_why(command: str, environment: str | None, default: str) -> None:
    _, out, _ = run([command, "--help"], env={"GINREF_RULES": environment})
    rules_help = one_paragraph(out.split("--rules NAME")[1].split("--rules-file")[0])
    assert default in rules_help
    assert rules_help.count("[default:") == 1


def test_what_the_rules_help_says_is_what_applies() -> None:
    """GINREF_RULES rules a hand, and a record only with --override-rules, as the help says."""
    env = {"GINREF_RULES": "oklahoma"}
    assert run(["analyze", HAND, "--json"], env=env)[1].count('"rules": "oklahoma"') == 1
    assert '"rules": "standard"' in run(["adjudicate", RECORD, "--json"], env=env)[1]
    assert '"rules": "oklahoma"' in run(["adjudicate", RECORD, "--json", "--override-rules"], env=env)[1]


# -- completion is discoverable (25) --------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_the_shell_would_ask_for(shell: str) -> None:
    code, out, _ = run(["completion", shell])
    asked = subprocess.run([sys.executable, "-m", "ginref"], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "_GINREF_COMPLETE": f"{shell}_source"})
    assert code == 0 and asked.returncode == 0
    assert out == asked.stdout and "_GINREF_COMPLETE" in out


def test_help_and_readme_show_how_to_load_completion() -> None:
    _, out, _ = run(["--help"])
    assert 'eval "$(ginref completion bash)"' in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Shell completion" in readme and 'eval "$(ginref completion bash)"' in readme


# -- adjudicate FOLDER past a screenful (25) ------------------------------------------------------


def on_a_terminal(args: list[str], lines: int) -> str:
    """Run ginref with stdout and stderr on a pseudo-terminal of ``lines`` rows; all it showed."""
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "ginref", *args], stdout=slave, stderr=slave,
                               stdin=subprocess.DEVNULL, cwd=ROOT,
                               env={**os.environ, "LINES": str(lines), "COLUMNS": "80"})
    os.close(slave)
    seen = read_until_closed(master)
    process.wait(timeout=120)
    os.close(master)
    return seen.decode("utf-8", "replace")


HINT = re.compile(r"hint: that was (\d+) records; `ginref verify (\S+)` reports only the ones with findings")


def test_adjudicate_of_a_folder_past_a_screenful_points_at_verify() -> None:
    shown = on_a_terminal(["adjudicate", "samples/records"], lines=40)
    hint = HINT.search(shown)
    assert hint is not None and int(hint[1]) > 10 and hint[2] == "samples/records"
    assert shown.rstrip().endswith(shown[hint.start():].rstrip().splitlines()[-1])


@pytest.mark.parametrize(("args", "lines"), [
    (["adjudicate", "samples/records/knock-layoffs.gin"], 5),   # one record, however long
    (["adjudicate", "samples/records/all.jsonl"], 10_000),      # fits on the screen
])
def test_no_hint_when_there_is_nothing_to_sum_up(args: list[str], lines: int) -> None:
    assert HINT.search(on_a_terminal(args, lines)) is None


def test_no_hint_into_a_pipe() -> None:
    code, _, err = run(["adjudicate", str(ROOT / "samples" / "records")])
    assert code == 1 and "hint:" not in err


# -- the knocker's melds (23) ---------------------------------------------------------------------


@pytest.mark.parametrize("melds", ["", "   "])
def test_layoffs_without_the_knockers_melds_says_why_there_is_no_answer(melds: str) -> None:
    code, out, err = run(["layoffs", "--melds", melds, DEFENDER])
    assert (code, out) == (2, "")
    assert err.splitlines() == ["Error: --melds: no melds given; layoffs go onto the knocker's melds, so "
                                "without them there is nothing to lay off"]


def test_score_with_no_melds_declared_rules_the_knock() -> None:
    """A declared spread of no melds is a spread a referee can rule on (an illegal knock under
    every preset's limit of 10), so ``score --melds ''`` answers."""
    code, out, _ = run(["score", "--knocker", KNOCKER, "--defender", "6C 9C 5S JH JC JD 4H AH 8D TD",
                        "--melds", ""])
    assert code == 0 and out.startswith("illegal_knock")


# -- a rules file that cannot be read is 3, everywhere (23) ----------------------------------------

RULES_FILES = {
    "broken.toml": "gin_bonus = [\n",
    "not-rules.toml": "colour = 'red'\n",
    "bad-base.toml": "base = 'hollywod'\n",
    "bad-value.toml": "gin_bonus = 'lots'\n",
}
COMMANDS = {
    "rules": ["rules"],
    "analyze": ["analyze", HAND],
    "knock": ["knock", HAND],
    "layoffs": ["layoffs", "--melds", "[4H 5H 6H] [QC QD QS]", DEFENDER],
    "score": ["score", "--knocker", KNOCKER, "--defender", "6C 9C 5S JH JC JD 4H AH 8D TD"],
    "advise": ["advise", HAND + " 8S"],
    "advise --at": ["advise", RECORD, "--at", "17"],
    "game": ["game", str(ROOT / "samples" / "sheets" / "standard-worked.sheet")],
    "adjudicate": ["adjudicate", RECORD, "--override-rules"],
    "verify": ["verify", RECORD, "--override-rules"],
}


@pytest.mark.parametrize("name", sorted(RULES_FILES))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_rules_file_that_cannot_be_read_exits_3(command: str, name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(RULES_FILES[name])
    code, out, err = run([*COMMANDS[command], "--rules-file", str(path)])
    assert (code, out) == (3, "")
    assert err.startswith(f"Error: {path}:") and len(err.splitlines()) == 1


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_rules_file_that_is_missing_is_still_a_usage_error(command: str, tmp_path: Path) -> None:
    code, _, err = run([*COMMANDS[command], "--rules-file", str(tmp_path / "nosuch.toml")])
    assert code == 2 and "does not exist" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads every file")
def test_a_rules_file_without_permission_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "locked.toml"
    path.write_text("gin_bonus = 25\n")
    path.chmod(0)
    code, _, err = run(["analyze", HAND, "--rules-file", str(path)])
    assert code == 3 and "locked.toml" in err


def test_a_bad_set_on_the_command_line_stays_a_usage_error() -> None:
    assert run(["analyze", HAND, "--set", "gin_bonus=lots"])[0] == 2


# -- unknown rule set names (23) ------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "said"), [
    ("zzz", CHOICES),
    ("tournamnet", "did you mean 'tournament'?"),
    ("tallnight", "did you mean 'tallynight'?"),
])
def test_an_unknown_rule_set_lists_or_suggests_aliases_too(typed: str, said: str) -> None:
    code, _, err = run(["rules", typed])
    assert code == 2 and err.startswith(f"Error: unknown rules {typed!r}; {said}")
