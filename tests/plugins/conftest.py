"""The Sparks plugin (``tests/plugins/campfire-sparks``) in the tests of its own package.

The root ``tests/conftest.py`` installs the plugin into the test environment (its metadata and
its folder on the path), and Campfire finds it through its entry point (``campfire.games``), as
any installed game: the whole suite (the conformance suite, the hidden-information and
catalog checks, the servers the tests start) runs it with the built-in games. Nothing here
registers it by hand.
"""
