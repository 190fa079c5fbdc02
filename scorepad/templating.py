"""Jinja's template class, with imports that cost what they do.

Every `{% import "_macros.html" as m %}` asks Jinja whether the importing template has globals the
macros' module lacks (it would then make the module anew). Jinja answers by testing each of the
context's 70 global names against a `ChainMap`, one Python-level lookup at a time: two imports were
an eighth of a tap's drawing (profiled). The same question is asked here of the map's keys at once,
and the answer (the same as Jinja's) lets Jinja hand back the module it made once.
"""

from __future__ import annotations

from typing import Any

import jinja2
from flask import Flask


class Template(jinja2.Template):
    def _get_default_module(self, ctx: Any = None) -> Any:
        if ctx is not None and not ctx.globals_keys.difference(self.globals):
            ctx = None  # no global of the importer's is missing from the module's: Jinja's own module
        return super()._get_default_module(ctx)


def init_app(app: Flask) -> None:
    """Before any template is loaded (after the configuration, which the environment reads)."""
    app.jinja_env.template_class = Template
