"""The DRN reader's action lines read once per distinct text (a repeated line takes a shortcut): the
same names, rewards, choices and errors as a line read in full."""

from fractions import Fraction

import pytest

from exactplay.interop.drn_read import parse_drn
from exactplay.model.compiled import ModelError

HEAD = "@type: {t}\n@parameters\n\n@reward_models\n{rm}\n@nr_states\n{n}\n@nr_choices\n{c}\n@model\n"


def test_repeated_action_lines_keep_their_names_rewards_and_transitions():
    body = ("state 0 init\n\taction a [1/2]\n\t\t1 : 1/3\n\t\t2 : 2/3\n\taction b [3]\n\t\t2 : 1\n"
            "state 1\n\taction a [1/2]\n\t\t0 : 1\n\taction b [3]\n\t\t1 : 1/2\n\t\t2 : 1/2\n"
            "state 2 done\n  action a [1/2]\n\t\t2 : 1\n\taction a [5]\n\t\t0 : 1\n")
    d = parse_drn(HEAD.format(t="MDP", rm="r", n=3, c=6) + body)
    assert d.first == [0, 2, 4, 6]
    assert d.action_names == ["a", "b", "a", "b", "a", "a"]
    assert d.action_rewards == [(Fraction(1, 2),), (3,), (Fraction(1, 2),), (3,), (Fraction(1, 2),), (5,)]
    assert d.start == [0, 2, 3, 4, 6, 7, 8]
    assert d.succ == [1, 2, 2, 0, 1, 2, 2, 0]
    assert [d.probs[i] for i in d.pk] == [Fraction(1, 3), Fraction(2, 3), 1, 1, Fraction(1, 2), Fraction(1, 2), 1, 1]


@pytest.mark.parametrize("body, message", [
    # the second "action a" of a state is read by the shortcut: its choice is still checked when closed
    ("state 0 init\n\taction a\n\t\t0 : 1\nstate 1\n\taction a\n\t\t0 : 1/2\n", "sum to 1/2"),
    ("state 0 init\n\taction a\n\t\t0 : 1\nstate 1\n\taction a\n\taction a\n\t\t0 : 1\n", "has no successor"),
])
def test_a_repeated_action_line_closes_the_choice_before_it(body, message):
    with pytest.raises(ModelError, match=message):
        parse_drn(HEAD.format(t="MDP", rm="", n=2, c=2 if "1/2" in body else 3) + body)


def test_a_dtmc_state_with_two_repeated_action_lines_is_refused():
    body = "state 0 init\n\taction 0\n\t\t0 : 1\nstate 1\n\taction 0\n\t\t0 : 1\n\taction 0\n\t\t1 : 1\n"
    with pytest.raises(ModelError, match="a DTMC state has one action"):
        parse_drn(HEAD.format(t="DTMC", rm="", n=2, c=3) + body)
