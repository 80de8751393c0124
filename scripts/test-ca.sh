#!/usr/bin/env bash
# A throwaway certificate authority for the TLS tests on loopback (PostgreSQL, the mail relay,
# nginx), made with the openssl command in well under a second: P-256 keys, valid for two days.
#
#   scripts/test-ca.sh DIR
#
# Writes into DIR (made if missing):
#   ca.crt                      the test CA, which the clients are told to trust
#   server.crt, server.key      a server certificate it signs, for 127.0.0.1, ::1 and localhost
#   stranger.crt, stranger.key  a certificate for the same names from another CA, which nothing
#                               trusts: what a machine in the middle would present
set -euo pipefail
dir=${1:?usage: $0 DIR}
"$(dirname "$0")/install-deps.sh" tls >&2
mkdir -p "$dir"
cd "$dir"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; chmod 600 "$1"; }
authority() {  # NAME: NAME.key and a self-signed NAME.crt
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -days 2 -subj "/CN=Tessera test CA ($1)" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -out "$1.crt"
}
server() {  # NAME AUTHORITY: NAME.key and NAME.crt for the loopback names, signed by AUTHORITY
  key "$1.key"
  openssl req -new -key "$1.key" -subj "/CN=localhost" -out "$1.csr"
  openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial -days 2 -out "$1.crt" 2>/dev/null \
    -extfile <(printf '%s\n' "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost" "extendedKeyUsage=serverAuth" "basicConstraints=CA:FALSE")
  rm -f "$1.csr"
}
authority ca
server server ca
authority other-ca
server stranger other-ca
rm -f other-ca.key other-ca.srl ca.srl
