"""Adapters for research tools: OpenSpiel, PettingZoo and Gymnasium (``docs/adapters.md``).

Install them with ``pip install campfire-games[rl]``. The submodules import their framework, so
import the one you need:

* :mod:`campfire.adapters.openspiel` registers ``campfire_<game>`` with ``pyspiel``;
* :mod:`campfire.adapters.pettingzoo` has ``env(game, players, render_mode, **options)``;
* :mod:`campfire.adapters.gymnasium` has ``CampfireEnv``, one learner against Campfire agents;
* :mod:`campfire.adapters.encoders` turns a seat's view and memory into a vector;
* :mod:`campfire.adapters.session` drives a game by action indices (what the others wrap).
"""
