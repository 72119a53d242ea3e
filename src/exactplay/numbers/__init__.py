"""The arithmetic contexts: exact and float number backends (:mod:`~exactplay.numbers.backends`),
python-flint balls (:mod:`~exactplay.numbers.balls`) and correctly rounded decimals
(:mod:`~exactplay.numbers.decimals`).
"""
