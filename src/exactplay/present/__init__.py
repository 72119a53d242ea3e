"""What people and machines read: strict JSON (:mod:`~exactplay.strict_json`), text
renderings of results (:mod:`~exactplay.present.render`), HTML reports and figures
(:mod:`~exactplay.present.report`).
"""
