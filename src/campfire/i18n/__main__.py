"""``python -m campfire.i18n extract|update|check`` (see :mod:`campfire.i18n.extract`)."""

import sys

from .extract import main

sys.exit(main())
