"""The audit trail: who changed what, when, before and after, and how to undo it.

Infrastructure below the game apps: it knows no league, rating or tournament rule. Each app
registers its actions (code, label) and its undo handlers from its `AppConfig.ready()`
(see `audit.registry`), and records entries through `audit.services.log_action`.
"""
