"""A convention's own certificate authority: one CA, one certificate for the broker (and the page).

``fleet broker-config --tls NAME...`` makes them with ``cryptography`` (the ``organiser`` extra): the
CA's certificate goes to every station (``[fleet] ca_file``), which then refuses any broker that
cannot show a certificate this CA signed for the name the station dials. The CA's key stays with the
organiser (mode 0600) and signs nothing else. Certificates are valid from a year before they are made:
a Pi without a clock chip starts on the time it last saved, which may be before today, and must
still accept the broker before the network sets its clock.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tablekeeper.errors import ConfigError

CA_DAYS: Final = 3650
SERVER_DAYS: Final = 825
BACKDATE: Final = datetime.timedelta(days=365)
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*$")


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """Where the CA and the broker's certificate are (PEM)."""

    ca_certificate: Path
    ca_key: Path
    certificate: Path
    key: Path


def tls_paths(directory: Path) -> TlsFiles:
    return TlsFiles(ca_certificate=directory / "ca.crt", ca_key=directory / "ca.key",
                    certificate=directory / "broker.crt", key=directory / "broker.key")


def check_names(names: Sequence[str]) -> None:
    """Each name the broker is reached by must be a host name or an IP address (one line otherwise)."""
    for name in names:
        try:
            ipaddress.ip_address(name)
        except ValueError:
            if not _HOST_NAME.match(name):
                raise ConfigError(f"--tls {name!r}: not a host name or an IP address") from None


def write_authority(files: TlsFiles, names: Sequence[str], *, now: datetime.datetime | None = None) -> None:
    """Make the CA and a certificate for ``names`` (host names and addresses the stations dial)."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        raise ConfigError("--tls: needs the 'cryptography' package; install it with "
                          "pip install 'tablekeeper[organiser]'") from None
    check_names(names)
    moment = (now or datetime.datetime.now(datetime.UTC)) - BACKDATE
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tablekeeper fleet CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(moment)
          .not_valid_after(moment + BACKDATE + datetime.timedelta(days=CA_DAYS))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    alternatives: list[x509.GeneralName] = []
    for name in names:
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternatives.append(x509.DNSName(name))
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(moment).not_valid_after(moment + BACKDATE + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    private = serialization.PrivateFormat.PKCS8
    files.ca_certificate.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write(files.ca_key, ca_key.private_bytes(pem, private, serialization.NoEncryption()), 0o600)
    _write(files.key, key.private_bytes(pem, private, serialization.NoEncryption()), 0o600)
    _write(files.ca_certificate, ca.public_bytes(pem), 0o644)
    _write(files.certificate, certificate.public_bytes(pem), 0o644)
    files.ca_certificate.parent.chmod(0o755)  # the broker (another account) reads its certificate and key here


def _write(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
