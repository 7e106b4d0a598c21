"""The load bench's parts (`bench/load.py` is its command): a private PostgreSQL cluster
(`cluster`, which the other benches use to create their databases), the site under gunicorn
(`server`), timed HTTP clients (`client`), the console and pages read through their `data-*`
attributes and tables with `html.parser` (`pages`), the Friday night's judges and visitors
(`scenario`), the table of timings (`report`), the checks (`verify`), the restart and SIGKILL
drills (`drills`) and the run that ties them together (`run`). Modules that touch Django import
it inside their functions: `run` configures Django only once the private cluster is up.
"""
