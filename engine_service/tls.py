"""The engine's transport security: TLS from PEM files, client certificates required when
a client CA is given (mutual TLS: only holders of a certificate that CA signed, the
gateway, may call), plaintext when no file is named (the loopback default).

The files are read and checked once at startup, with Python's own TLS library, so that a
missing file or a key that does not match its certificate stops the engine with a message
naming the flag, instead of every handshake failing later.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc


class TlsSettingsError(ValueError):
    """The TLS flags name no usable certificate, key or CA; the message names the flag."""


@dataclass(frozen=True)
class ServerTls:
    """The engine's certificate chain and key, and the CA its clients' certificates must
    chain to (None: any client may connect, as with server-side TLS on the web)."""

    cert: bytes
    key: bytes
    client_ca: bytes | None = None

    def credentials(self) -> grpc.ServerCredentials:
        return grpc.ssl_server_credentials([(self.key, self.cert)],
                                           root_certificates=self.client_ca,
                                           require_client_auth=self.client_ca is not None)

    def describe(self) -> str:
        return "TLS, client certificates required" if self.client_ca else "TLS"


def read_server_tls(cert: str, key: str, client_ca: str) -> ServerTls | None:
    """The settings of ``--tls-cert``, ``--tls-key`` and ``--tls-client-ca`` (paths, or
    empty when not given); None for plaintext. Raises :class:`TlsSettingsError`."""
    if not (cert or key or client_ca):
        return None
    files = {"--tls-cert": cert, "--tls-key": key, "--tls-client-ca": client_ca}
    missing = [flag for flag in ("--tls-cert", "--tls-key") if not files[flag]]
    if missing:
        given = " and ".join(flag for flag, path in files.items() if path)
        raise TlsSettingsError(
            f"{given} given without {' and '.join(missing)} (env "
            f"{', '.join(_env(flag) for flag in missing)}): TLS needs a certificate and its "
            "private key")
    contents = {flag: _read(flag, path) for flag, path in files.items() if path}
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as error:
        raise TlsSettingsError(f"--tls-cert {cert} and --tls-key {key} are not a PEM "
                               f"certificate and its private key: {error}") from None
    if client_ca:
        try:
            context.load_verify_locations(cafile=client_ca)
        except ssl.SSLError as error:
            raise TlsSettingsError(f"--tls-client-ca {client_ca} holds no PEM "
                                   f"certificate: {error}") from None
    return ServerTls(contents["--tls-cert"], contents["--tls-key"],
                     contents.get("--tls-client-ca"))


def _read(flag: str, path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise TlsSettingsError(f"{flag} {path}: cannot read it ({error.strerror})") from None


def _env(flag: str) -> str:
    return "REFEREE_ENGINE_" + flag.removeprefix("--").replace("-", "_").upper()
