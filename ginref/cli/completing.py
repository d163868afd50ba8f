"""Completion in bash, where a word breaks at ``=``: ``--set tie_policy=<TAB>`` completes the
value, and ``--set tie<TAB>`` leaves no space after ``tie_policy=``.

bash hands a completion function its words split at every character of ``COMP_WORDBREAKS``
(``=`` and ``:`` among them), so click's own script reads ``tie_policy`` and ``=`` as two
arguments. This script sends the line up to the cursor instead; the program reads the
words from it as a user typed them and answers with the part of each completion that
replaces bash's own current word. Loaded only when a shell asks for completions.
"""

from __future__ import annotations

import os

from click.shell_completion import BashComplete, CompletionItem, add_completion_class, split_arg_string

SOURCE_BASH = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
        COMP_LINE="${COMP_LINE:0:COMP_POINT}" COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
        %(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=("$value")
            if [[ $value == *= ]]; then
                compopt -o nospace
            fi
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


class LineBashComplete(BashComplete):
    """bash completion read from the line as typed (``COMP_LINE``), not from bash's words."""

    source_template = SOURCE_BASH
    typed = ""
    """the word being completed, as typed; bash's current word is its end"""

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMP_LINE")
        if line is None:  # a script loaded before this one: bash's words
            return super().get_completion_args()
        words = split_arg_string(line)
        self.typed = "" if not line or line[-1].isspace() or not words else words.pop()
        return words[1:], self.typed

    def format_completion(self, item: CompletionItem) -> str:
        breaks = os.environ.get("COMP_WORDBREAKS", WORD_BREAKS)
        return f"{item.type},{replacing_word(item.value, self.typed, breaks)}"


WORD_BREAKS = " \t\n\"'><=;|&(:"
"""bash's ``COMP_WORDBREAKS`` unless changed"""


def replacing_word(value: str, typed: str, breaks: str) -> str:
    """What replaces the word readline completes, the end of ``typed`` after its last
    character in ``breaks``, to give ``value``: ``no_score`` for ``tie_policy=no_score``
    when ``tie_policy=no`` was typed, ``knocker`` after ``tie_policy=``."""
    cut = max((typed.rfind(c) for c in breaks), default=-1) + 1
    return value[cut:] if cut and value.startswith(typed[:cut]) else value


def use_line_completion() -> None:
    """Make :class:`LineBashComplete` the one click uses for bash."""
    add_completion_class(LineBashComplete, "bash")
