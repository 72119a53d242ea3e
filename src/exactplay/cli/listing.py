"""``exactplay list``: the games, their parameters and defaults, the commands each supports."""

from __future__ import annotations

from ..errors import EXIT_OK
from ..registry import game_names
from ..strict_json import dumps
from .parsing import EPILOG, _load_games, _param_help

COMMANDS = {"list": "the games, their parameters and defaults"}  # name: its line in exactplay --help


def add_parser(sub, command: str) -> None:
    p = sub.add_parser(command, epilog=EPILOG)
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    """Every registered game: title, parameters with defaults, and the commands it supports."""
    from ..claims import all_claims

    rows = []
    games, missing = _load_games()
    by_name = {g.name: g for g in games}
    for name in game_names():
        if name in missing:
            rows.append({"game": name, "available": False, "reason": missing[name]})
            continue
        game = by_name[name]
        commands = ["solve", "audit", "certify", "report"] + (["judge"] if game.judge is not None else [])
        claims = all_claims(name)
        rows.append(
            {
                "game": game.name,
                "available": True,
                "title": game.title,
                "params": [
                    {"name": p.name, "default": p.default, "help": p.help, "positional": p.positional}
                    for p in game.params
                ],
                "commands": commands,
                "claims": len(claims),
                "slow_claims": sum(1 for c in claims if c.slow),
                "float_table": None if game.value_table is None else {
                    "columns": list(game.table_columns), "value": game.table_value},
            }
        )
    if args.json:
        print(dumps(rows, default=list))
        return EXIT_OK
    for row in rows:
        if not row["available"]:
            print(f"{row['game']:6}  ({row['reason']})")
            continue
        print(f"{row['game']:6}  {row['title']}")
        for p in row["params"]:
            flag = p["name"].upper() + "..." if p["positional"] else f"--{p['name'].replace('_', '-')}"
            print(f"        {flag:14} {_param_help(p['help'], p['default'])}")
        if row["float_table"] and row["float_table"]["columns"]:
            ft = row["float_table"]
            print(f"        --float-table rows: {' '.join(ft['columns'])} value; value = {ft['value']}")
        print(f"        commands: {', '.join(row['commands'])}; {row['claims']} seed claims "
              f"({row['slow_claims']} slow): exactplay claims --game {row['game']}")
    first = next((r["game"] for r in rows if r["available"]), None)
    if first:
        print(f"\ntry: exactplay audit {first}    (exactplay COMMAND GAME --help for the options)")
    print("your own game: exactplay solve --game path/to/game.py:make_game --param goal=20  "
          "(or --model FILE.json; see examples/)")
    return EXIT_OK

