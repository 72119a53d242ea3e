"""Judging float programs against exact values: tables read, compared state by state
(:mod:`~exactplay.audit.judge`), typed results, and the ball enclosures that certify without
exact arithmetic (:mod:`~exactplay.audit.enclosure`).
"""
