"""Certificates (version 2): a game's or a model's exact solution written for the independent
checker (:mod:`exactplay.checker`), as strict JSON with exact numbers as ``"p/q"``.
"""
