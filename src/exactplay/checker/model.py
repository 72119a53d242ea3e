"""Independent check of a certificate v2 of kind ``"model"`` (any finite game of chance).

Standard library only (:class:`fractions.Fraction`, ``json``, ``hashlib``); it
imports nothing from the engine, the model package, the certificate writer or
the games, so a bug there cannot hide itself by being shared with the check.
``verify(cert)`` returns a one-line summary or raises
:class:`~exactplay.errors.VerificationError` naming the field (and the state,
by index, where there is one) of the first failure.  No input, however
malformed, ends in a traceback; nothing recurses; numbers longer than
:data:`MAX_NUMBER_CHARS` characters and models over :data:`MAX_STATES` states
are refused.

What is verified (everything but :data:`UNVERIFIED`):

1. *The envelope*: ``format``, ``version`` 2, ``kind`` ``"model"``; no unknown
   key anywhere (top level, model, states, actions, solution, answer).
2. *The model* (the explicit model format, as the writer canonically writes
   it): players, objective, state ids equal to their positions, ``initial``;
   terminal states carry one payoff per player, other states a mover (a
   player of the objective, or ``null`` for chance: then exactly one action)
   and actions whose outcomes are distinct existing states with canonical
   ``"p/q"`` probabilities (lowest terms, positive) summing to exactly 1,
   rewards of one entry per player.  ``model_sha256`` is the SHA-256 of
   ``json.dumps(model, sort_keys=True, separators=(",", ":"))``.
3. *The objective*, resolved here: ``auto`` is ``zero-sum`` for two players
   whose terminal payoffs all sum to one constant and whose rewards all sum
   to 0, in a game where every play ends (a play that never ends is worth 0
   to both, so the sum is not constant there: such a game must declare
   ``zero-sum``), else ``max``.  Keys: ``max`` -- player i maximises component i;
   ``zero-sum`` -- player 0 maximises component 0, player 1 minimises it;
   ``min`` -- player 0 minimises component 0.
4. *The witness* is the one the model calls for (recomputed: iterative Tarjan
   SCCs and the attractor of the terminal states); a model with ``never_ending``
   ``"infinite"`` (a strategy that does not end play with probability 1 is worth
   +infinity) has ``termination`` when every play ends, else ``proper``, whose
   checks replace 5-8 (:mod:`exactplay.checker._proper`).  Otherwise ``termination`` when every
   play ends under all strategies (components: all players); otherwise
   ``policy`` when no choice state (a player with two actions or more) lies on
   a cycle (all players); otherwise ``reward`` where a reward lies at a state
   from which play can go on forever, or in the key component of choices on a
   cycle (a play that never ends keeps the rewards it collected); otherwise
   ``reachability`` (in both, the one key component c all choosers share,
   or all players where none chooses; every payoff and reward of c must be >= 0).  Choosers
   with different key components and a choice on a cycle have no single
   value: refused.
5. *Bellman, exactly, at every state*: terminal values are the payoffs;
   otherwise, with ``Q_a = reward_a + sum p V(t)`` (over the components),
   ``V = Q_policy`` and at choice states the policy attains the optimum of
   ``sign * Q_a[key]``.  In the reachability and reward witnesses ``V[c] >= 0``.  Without stored
   values (policy only) the values are the policy's, evaluated exactly
   (:mod:`._evaluate`); the comparisons are made on proved fixed-point shadows of
   the exact values and exactly where two shadows do not separate (:mod:`._values`).
6. *Ranks*: each rank is checked locally against its successors' ranks
   (``None`` counting as infinity), and local consistency pins them down to
   the least ranks the rule allows, so they are checked exactly:

   * termination: terminals 0; elsewhere ``1 + max_a min_t rank(t)``, finite
     everywhere (every action of every state has a successor of lower rank);
   * reachability: terminals with a positive payoff 0; states of value 0
     unranked; states of positive value ranked, ``1 + min`` over the optimal
     actions at a maximiser's choice, ``1 + max_a min_t`` elsewhere.  This is
     what rules out the fake fixed points of end components (Chatterjee,
     Quatmann et al., TACAS 2025);
   * reward: as reachability, with rank 0 at every terminal and every state of
     value 0: following the ranks, play stops there almost surely, so by optional
     stopping ``V`` is attained, and a fixed point ``V >= 0`` bounds the least one
     (the value) from above;
   * policy: terminals 0; elsewhere ``1 + min_t rank(t)`` over the policy
     action's successors; an unranked state has value 0 and no reward on its
     policy action.

7. *The policy* is canonical: the earliest optimal action, except at a
   maximiser's choice of positive value in the reachability and reward witnesses, where it
   is the earliest optimal action with a successor of lower rank; terminals
   ``null``, single-action states 0.
8. *Margins and ties*: at every choice state the best minus the runner-up in
   the mover's objective (``0/1`` on a tie), ``null`` elsewhere -- stored with the
   values only; the ties are exactly the choice states with two optimal actions
   or more, all listed.
   The compared action values are the one-step ``Q_a = reward_a + sum p V(t)``
   everywhere, self-loops included (an action that loops forever then ties
   with the optimum; the policy rule above says which one is taken).
9. *The answer*: the initial state, ``components[0]``, its exact value, the
   decimal correctly rounded half-to-even to ``digits`` places, the name
   recomputed from the model; ``smallest_margin`` is the smallest non-zero
   margin at its lowest state, or ``null``.  A model with several initial
   states (``model.initial_states``) has ``initial_states``: the value of each
   (same component), and the smallest and the largest with the first initial
   state attaining each and its decimal; a model with one has no such field.
10. *The source* (optional: a model built from a PRISM, PRISM-games or JANI
   file): the property's answer at each initial state and its threshold,
   recomputed from the verified values; the file's SHA-256, constants and
   property are recorded, not re-derived (:mod:`exactplay.checker._source`).

Why this suffices.  Termination: every play ends under all strategies, so the
Bellman equations have exactly one solution, the value (a stopping game), and
the policy's equations V = Q_policy determine the other components.  Policy:
no choice is on a cycle, so by induction over the SCCs the optimal choices are
those of the checked values; with the policy fixed, the states that cannot
reach a terminal are unranked (a rank proves a path to a terminal), hence
worth 0 with no reward, and on the others the chain leaves with positive
probability, so V = Q_policy has one solution.  Reachability: V >= 0 and
Bellman make V an upper bound (the minimiser's optimal actions make V plus the
collected reward a supermartingale); the ranks make the policy reach a
positive terminal from every state of positive value whatever the minimiser
does, so V is also attained: V is the value.
"""

from __future__ import annotations

import gc
from typing import Any

from ..errors import VerificationError
from . import _strict
from ._answer import Answer
from ._source import Source
from ._bellman import Bellman
from ._choices import Choices
from ._evaluate import PolicyEvaluation
from ._proper import Proper
from ._strict import (ANSWER_KEYS, MAX_DIGITS, MAX_NUMBER_CHARS, SOLUTION_KEYS, Where, fail, integer,
                      keys, show)
from ._witness import Witness
from .explicit import ModelReader

__all__ = ["verify", "UNVERIFIED", "RECORDED", "MAX_STATES", "MAX_NUMBER_CHARS", "MAX_DIGITS", "TOP_REQUIRED",
           "SOLUTION_KEYS", "ANSWER_KEYS", "guarded", "SolutionChecker"]

UNVERIFIED = ("tool_version", "notes")  # informational: returned, never checked
RECORDED = ("params",)  # the factory's parameters: their form is checked, nothing ties them to the model
MAX_STATES = _strict.MAX_STATES

TOP_REQUIRED = ("format", "version", "kind", "model", "model_sha256", "solution", "answer", "smallest_margin")


def verify(cert: Any) -> str:
    """Verify a parsed certificate v2 of kind ``"model"``; return a one-line summary."""
    where = Where()
    return guarded(lambda: _Checker(cert, where).run(), where)


def guarded(run, where: Where):
    """``run()``, with any unforeseen error turned into a :class:`VerificationError` naming the
    field being read: the promise is one line, never a traceback, on malformed input.

    The cyclic garbage collector is paused meanwhile: a check builds millions of small containers and
    no reference cycles of its own, and the collector's passes over them took half of a rebuild's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return run()
    except VerificationError:
        raise
    except RecursionError:
        raise VerificationError("malformed certificate (nested too deeply)", field=where.field,
                                state=where.state) from None
    except MemoryError:
        raise VerificationError("certificate too large for this machine", field=where.field) from None
    except Exception as exc:  # noqa: BLE001 - the promise: no traceback on malformed input
        raise VerificationError(f"malformed certificate ({type(exc).__name__}: {str(exc)[:80]})",
                                field=where.field, state=where.state) from None
    finally:
        if enabled:
            gc.enable()


def guarded_named(checker, where: Where) -> str:
    """:func:`guarded` ``checker.run()``; a failure at a state names the state after its number."""
    try:
        return guarded(checker.run, where)
    except VerificationError as exc:
        names, s = getattr(checker, "state_names", None), exc.state
        if names is None or type(s) is not int or not 0 <= s < len(names):
            raise
        new = VerificationError(f"{exc.args[0]} [state {s} is {names[s][:80]}]")
        new.field, new.state = exc.field, exc.state
        raise new from None


class SolutionChecker(Witness, PolicyEvaluation, Bellman, Choices, Proper, Answer):
    """The generic checks (objective, witness, Bellman, ranks, policy, margins, ties, answer,
    smallest margin) on a model already read into the checker's attributes."""

    never_ending = "zero"  # (a model's reader sets it; a built-in game's rules keep the default)

    def __init__(self, cert: Any, where: Where):
        self.cert = cert
        self.where = where
        self.max_states = MAX_STATES

    def at(self, field: str, state: Any = None) -> None:
        self.where.field = field
        self.where.state = state

    def check_solution(self, answer_name: str, component: int) -> str:
        """Everything after the model: return the summary's tail."""
        self.graph()
        self.resolve_objective()
        self.check_witness()
        self.read_solution()
        if self.witness == "proper":  # never_ending "infinite" (:mod:`._proper`)
            self.check_proper()
        else:
            self.check_bellman()
            self.check_ranks()
            self.check_policy()
            self.check_margins_and_ties()
        self.check_answer(answer_name, component)
        self.check_initial_states()
        self.check_smallest_margin()
        evaluated = ""
        if self.stored == "policy":
            e = self.evaluated
            evaluated = (f"values not stored: the policy evaluated exactly ({e['single']:,} single states, "
                         f"{e['self_loop']:,} self-loops, {e['cyclic']:,} cycles by elimination on "
                         f"{e['feedback']:,} feedback states); ")
        if self.witness == "proper":
            k = sum(1 for r in self.infinite if r is not None)
            evaluated = f"{k:,} infinite value(s) witnessed by graph search, "
        margins = "margins" if self.stored == "values" else "smallest margin"
        return (f"{self.n:,} states, objective {self.objective}, {self.witness} witness: {evaluated}"
                f"Bellman, ranks, policy, {margins} and {len(self.ties):,} tie(s) verified; {self.answer_text}")

    def check_header(self, kind: str, required: tuple, optional: tuple) -> None:
        cert = self.cert
        self.at("certificate")
        keys(cert, required, optional, "certificate")
        self.at("format")
        if cert["format"] != "exactplay-certificate":
            fail(f"format {show(cert['format'])} is not 'exactplay-certificate'", "format")
        self.at("version")
        if integer(cert["version"], "version") != 2:
            fail(f"version {show(cert['version'])} is not 2", "version")
        self.at("kind")
        if cert["kind"] != kind:
            fail(f"kind {show(cert['kind'])} is not {kind!r}", "kind")


class _Checker(ModelReader, SolutionChecker, Source):
    def run(self) -> str:
        self.max_states = MAX_STATES  # read at run time (tests lower it)
        self.check_header("model", TOP_REQUIRED, UNVERIFIED + RECORDED + ("initial_states", "source"))
        if "params" in self.cert:
            self.at("params")
            _strict.recorded_params(self.cert["params"])
        self.check_digest()
        self.read_model()
        tail = self.check_solution(None, None)  # a model's answer: its name and first certified component
        return f"model {self.name!r}: {tail}{self.check_source()}"
