"""*Moonlight: The Land of the Wolves* (two players, best of three): the rules engine.
Contract: the rules reference M-1 … M-7; its ruleset is :data:`~domain.moonlight.ruleset.MOONLIGHT`.

The modules, read top to bottom: ``cards`` (values, moons, decks, the Lone Wolf),
``cells`` (the table's grid and rectangle), ``state``, ``actions``, ``events``, ``rules``
(``play``), ``evolve``, ``scoring`` (M-5, M-7), ``legal``, ``fields``, ``records`` and
``positions`` (the JSON formats), ``codec`` (stored events), ``players`` (bots and
self-play), ``describe`` (labels), ``timeline`` (the step follower) and ``ruleset``.
"""
