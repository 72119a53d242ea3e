"""Parametric exact values: the value of a game as a rational function of one probability ``p``.

* :mod:`.poly` -- the polynomial object a factory receives for ``--param-symbol p``;
* :mod:`.build` -- enumerating the game with polynomial probabilities (:class:`~.build.PModel`);
* :mod:`.interval` -- the range where every probability stays in (0, 1);
* :mod:`.ratfunc` -- reduced rational functions over Q (python-flint ``fmpq_poly``);
* :mod:`.evaluate` -- a fixed policy's values and margins over Q(p);
* :mod:`.roots` -- irreducible factors and exact real roots (algebraic breakpoints);
* :mod:`.regions` -- the sweep: regions of constant optimal policy and their breakpoints;
* :mod:`.present`, :mod:`.certificate`, :mod:`.figure` -- text/JSON, certificate, plots (the command line:
  :mod:`exactplay.cli.parametric`).

From Python::

    from exactplay.parametric.poly import Param
    from exactplay.parametric.build import build_parametric
    from exactplay.parametric.interval import default_range
    from exactplay.parametric.regions import solve_parametric

    pm = build_parametric(make_game(goal=4, p=Param.symbol("p")), "p")
    ps = solve_parametric(pm, *default_range(pm))
    ps.regions[0].values[0][0]          # the initial state's value on the first region
"""
