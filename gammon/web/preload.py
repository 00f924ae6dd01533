"""Imported by the bots' forkserver only (:class:`gammon.web.workers.Thinkers`): the bots'
first decisions are made once there, so that every worker forked from it starts with
the compiled kernels loaded (:func:`gammon.web.workers.warm`)."""

from gammon.web.workers import warm

warm()
