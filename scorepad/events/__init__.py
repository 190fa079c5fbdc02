"""Events: the event core (`core`: tables, tokens, PIN, audit, look-ups), one module per format
(`military`, `bid_whist`, `drive`, `club`), and `registry.get_format(event.format)`, which finds a
format's entry points as `rules.get_variant` finds a variant's. Nothing outside the registry
branches on an event's format."""
