#!/usr/bin/env python3
"""A local signer of Firebase-style ID tokens, for trying `regimen serve --identity verified`
without a Firebase project (README, "Who may ask").

The first run makes an RS256 key in DIR (dev-key.pem, never for production) and its public JWKS
(jwks.json, for --id-token-jwks); every run prints an ID token for UID signed with it, valid for
an hour, with iss/aud for PROJECT and any extra claims given as JSON.
Usage: scripts/dev-id-token.py DIR UID [--project regimen-dev] [--claims '{"admin": true}']
Needs: the `cryptography` package (pip install cryptography).
"""
import argparse
import base64
import json
import time
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("uid")
    parser.add_argument("--project", default="regimen-dev")
    parser.add_argument("--claims", default="{}")
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    pem = folder / "dev-key.pem"
    if not pem.exists():
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        pem.chmod(0o600)
    key = serialization.load_pem_private_key(pem.read_bytes(), password=None)
    numbers = key.public_key().public_numbers()
    kid = "dev-" + b64url(numbers.n.to_bytes(256, "big")[:6])
    jwk = {"kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
           "n": b64url(numbers.n.to_bytes(256, "big")), "e": b64url(numbers.e.to_bytes(3, "big"))}
    (folder / "jwks.json").write_text(json.dumps({"keys": [jwk]}, indent=2) + "\n")
    now = int(time.time())
    claims = {"iss": f"https://securetoken.google.com/{args.project}", "aud": args.project, "sub": args.uid, "user_id": args.uid,
              "iat": now, "auth_time": now, "exp": now + 3600, "firebase": {"sign_in_provider": "password", "identities": {}}}
    claims.update(json.loads(args.claims))
    header = {"alg": "RS256", "typ": "JWT", "kid": kid}
    signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + b64url(json.dumps(claims, separators=(",", ":")).encode())
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    print(signing_input + "." + b64url(signature))


if __name__ == "__main__":
    main()
