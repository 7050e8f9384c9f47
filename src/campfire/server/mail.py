"""E-mail for the accounts: password resets and notifications, only where SMTP is configured.

``campfire serve --smtp-host HOST [--smtp-port PORT] [--smtp-from ADDRESS]`` names an SMTP
server (a local relay such as Postfix or an ISP's smarthost that accepts the server's mail
without authentication; ``docs/deploy.md``). Without ``--smtp-host`` the server sends no
e-mail and offers nothing that needs one: no e-mail address at sign-up, no password reset.

:class:`Mailer` sends one plain-text message with :mod:`smtplib` in a worker thread (the event
loop never waits on the network), with a time-out; a failure is logged and reported to the
caller as ``False``, never shown to the person (who is told the same whatever happened, so that
nobody learns which user names have an address). :meth:`Mailer.notify` sends the notifications
(turn-based tables' "your turn", :mod:`.turns`). The tests run against a local ``aiosmtpd``
server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import smtplib
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import make_msgid

from campfire.core import ErrorText, OptionError

__all__ = ["MAIL_VARIABLE", "SMTP_TIMEOUT", "MailSettings", "Mailer"]

log = logging.getLogger(__name__)

#: The environment variable that passes :class:`MailSettings` to ``--workers`` processes (JSON).
MAIL_VARIABLE = "CAMPFIRE_SERVE_MAIL"
#: Seconds one SMTP conversation may take.
SMTP_TIMEOUT = 20.0


@dataclass(frozen=True)
class MailSettings:
    """Where e-mail goes: an SMTP server (``host``, ``port``) and the sender's address.

    >>> MailSettings("localhost", 0)
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: the SMTP port is a whole number 1–65535 (got 0)
    """

    host: str
    port: int = 25
    #: the From address of every message
    sender: str = "campfire@localhost"

    def __post_init__(self) -> None:
        if not isinstance(self.port, int) or not 1 <= self.port <= 65535:
            raise OptionError(
                ErrorText("the SMTP port is a whole number 1–65535 (got {got})", got=self.port)
            )
        if not self.host or len(self.host) > 253:
            raise OptionError(ErrorText("the SMTP host is a host name or an address"))
        if "@" not in self.sender or len(self.sender) > 254 or "\n" in self.sender:
            raise OptionError(
                ErrorText(
                    "the sender's address is an e-mail address such as campfire@example.org "
                    "(got {got})",
                    got=repr(self.sender[:80]),
                )
            )

    def to_json(self) -> str:
        """The settings as JSON (what :data:`MAIL_VARIABLE` holds)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_environment(cls) -> MailSettings | None:
        """The settings in :data:`MAIL_VARIABLE` (``None``: no e-mail)."""
        text = os.environ.get(MAIL_VARIABLE)
        return cls(**json.loads(text)) if text else None


class Mailer:
    """Sends plain-text e-mail through :class:`MailSettings`' SMTP server."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    def message(self, to: str, subject: str, body: str) -> EmailMessage:
        """The message to ``to`` (``subject`` and ``body`` plain text, UTF-8)."""
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=self.settings.sender.rpartition("@")[2])
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(body)
        return message

    def send_now(self, to: str, subject: str, body: str) -> None:
        """Send one message, in this thread (raises :class:`OSError` or ``SMTPException``)."""
        with smtplib.SMTP(self.settings.host, self.settings.port, timeout=SMTP_TIMEOUT) as smtp:
            smtp.send_message(self.message(to, subject, body))

    async def send(self, to: str, subject: str, body: str) -> bool:
        """Send one message in a worker thread; whether the SMTP server took it (else logged)."""
        try:
            await asyncio.to_thread(self.send_now, to, subject, body)
        except (OSError, smtplib.SMTPException) as exc:
            log.warning(
                "e-mail to a user could not be sent through %s:%d: %s",
                self.settings.host,
                self.settings.port,
                exc,
            )
            return False
        return True

    async def notify(self, to: str | None, subject: str, body: str) -> bool:
        """A notification (such as "your turn") to a user's address; ``False`` without one."""
        if not to:
            return False
        return await self.send(to, subject, body)
