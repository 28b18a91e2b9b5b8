#!/usr/bin/env bash
# Generates a throwaway PKI for mtls-mirror's tests and demo. Nothing here is ever committed:
# every run (and every test run) makes fresh keys.
#
# Usage: scripts/gen-test-pki.sh OUTDIR [PASSWORD]
#
# Server side:  server-root CA -> server-int CA -> leaf certificates (EC P-256)
#   server-root.pem               trust anchor for the servers (use as --cacert)
#   server-int.pem                intermediate CA (sent by the servers in their chains)
#   server.pem / server.key       CN=localhost, SAN localhost, 127.0.0.1, ::1
#   server-chain.pem              server.pem + server-int.pem (nginx ssl_certificate)
#   server-expired-chain.pem/.key expired in 2021
#   server-wronghost-chain.pem/.key  SAN wrong.example only
#   server-revoked-chain.pem/.key revoked; listed in server-crl.pem
#   server-selfsigned.pem/.key    self-signed, SAN localhost, 127.0.0.1
#   server-crl.pem                CRLs of both server CAs (the int CA's lists server-revoked)
#   server-crl-empty.pem          CRLs of both server CAs before the revocation
# Client side:  client-root CA -> client-int CA -> client certificates
#   client-root.pem               what nginx trusts (ssl_client_certificate)
#   client-int.pem                intermediate; clients must send it (nginx ssl_verify_depth 2)
#   client.p12                    CN=mirror-client-1, AES-256/PBKDF2, with client-int, PASSWORD
#   client-legacy.p12             same identity, RC2/3DES (openssl pkcs12 -legacy)
#   client.pem / client.key       same identity as PEM; client-chain.pem = client.pem + client-int.pem
#   client-enc.key                client.key encrypted with PASSWORD (AES-256)
#   client-combined.pem           key + certificate + chain in one file
#   client2.p12 / client2.pem / client2.key   CN=mirror-client-2 (second identity)
#   client-expired.pem/.key       expired in 2021; client-expired.p12
#   client-expiring.pem/.key      valid for 10 more days; client-expiring.p12
#   client-notyet.pem/.key        valid from 2090
#   rogue.p12 / rogue.pem / rogue.key   CN=rogue-client from an untrusted CA
#   cert-only.pem                 client certificate without a key
#   garbage.p12                   random bytes
#   password.txt                  PASSWORD
set -euo pipefail

out=${1:?usage: gen-test-pki.sh OUTDIR [PASSWORD]}
pass=${2:-Sesame-T3st-Pa55}
mkdir -p "$out"
cd "$out"
umask 077

newkey() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# A small `openssl ca` setup so that we can backdate certificates and publish CRLs.
makeca() { # name subject [issuer]
    local name=$1 subject=$2 issuer=${3:-}
    mkdir -p "ca-$name/new"
    : >"ca-$name/index.txt"
    echo 1000 >"ca-$name/serial"
    echo 1000 >"ca-$name/crlnumber"
    cat >"ca-$name/ca.cnf" <<CNF
[ ca ]
default_ca = this
[ this ]
dir = ca-$name
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
crlnumber = \$dir/crlnumber
certificate = $name.pem
private_key = $name.key
default_md = sha256
default_crl_days = 3650
policy = anything
unique_subject = no
copy_extensions = copy
[ anything ]
commonName = supplied
organizationName = optional
[ leaf_server ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
[ leaf_client ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
[ sub_ca ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
CNF
    newkey "$name.key"
    if [ -z "$issuer" ]; then
        openssl req -x509 -new -key "$name.key" -subj "$subject" -days 3650 -sha256 \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
            -out "$name.pem" 2>/dev/null
    else
        openssl req -new -key "$name.key" -subj "$subject" -out "ca-$name/req.csr" 2>/dev/null
        openssl ca -batch -config "ca-$issuer/ca.cnf" -extensions sub_ca -days 3650 \
            -in "ca-$name/req.csr" -out "$name.pem" -notext 2>/dev/null
    fi
}

# sign ISSUER NAME SUBJECT EXTSECTION SAN [ca date options...]
sign() {
    local issuer=$1 name=$2 subject=$3 ext=$4 san=$5
    shift 5
    newkey "$name.key"
    local sanargs=()
    [ -n "$san" ] && sanargs=(-addext "subjectAltName=$san")
    openssl req -new -key "$name.key" -subj "$subject" "${sanargs[@]}" -out "$name.csr" 2>/dev/null
    openssl ca -batch -config "ca-$issuer/ca.cnf" -extensions "$ext" "$@" \
        -in "$name.csr" -out "$name.pem" -notext 2>/dev/null
    rm -f "$name.csr"
}

makeca server-root "/CN=mtls-mirror test server root CA"
makeca server-int "/CN=mtls-mirror test server intermediate CA" server-root
makeca client-root "/CN=mtls-mirror test client root CA"
makeca client-int "/CN=mtls-mirror test client intermediate CA" client-root
makeca rogue-ca "/CN=rogue CA"

localsan="DNS:localhost,IP:127.0.0.1,IP:::1"
sign server-int server "/CN=localhost" leaf_server "$localsan" -days 825
sign server-int server-expired "/CN=localhost" leaf_server "$localsan" -startdate 20200101000000Z -enddate 20210101000000Z
sign server-int server-wronghost "/CN=wrong.example" leaf_server "DNS:wrong.example" -days 825
sign server-int server-revoked "/CN=localhost" leaf_server "$localsan" -days 825
for n in server server-expired server-wronghost server-revoked; do cat "$n.pem" server-int.pem >"$n-chain.pem"; done

openssl ca -batch -config ca-server-root/ca.cnf -gencrl -out server-root.crl.pem 2>/dev/null
openssl ca -batch -config ca-server-int/ca.cnf -gencrl -out server-int.crl.pem 2>/dev/null
cat server-root.crl.pem server-int.crl.pem >server-crl-empty.pem
openssl ca -batch -config ca-server-int/ca.cnf -revoke server-revoked.pem 2>/dev/null
openssl ca -batch -config ca-server-int/ca.cnf -gencrl -out server-int.crl.pem 2>/dev/null
cat server-root.crl.pem server-int.crl.pem >server-crl.pem

newkey server-selfsigned.key
openssl req -x509 -new -key server-selfsigned.key -subj "/CN=localhost" -days 825 -sha256 \
    -addext "subjectAltName=$localsan" -out server-selfsigned.pem 2>/dev/null

sign client-int client "/CN=mirror-client-1/O=mtls-mirror tests" leaf_client "" -days 825
sign client-int client2 "/CN=mirror-client-2/O=mtls-mirror tests" leaf_client "" -days 825
sign client-int client-expired "/CN=mirror-client-expired" leaf_client "" -startdate 20200101000000Z -enddate 20210101000000Z
sign client-int client-expiring "/CN=mirror-client-expiring" leaf_client "" -days 10
sign client-int client-notyet "/CN=mirror-client-notyet" leaf_client "" -startdate 20900101000000Z -enddate 20910101000000Z
sign rogue-ca rogue "/CN=rogue-client" leaf_client "" -days 825

printf '%s\n' "$pass" >password.txt
cat client.pem client-int.pem >client-chain.pem
p12() { # name out [extra openssl options]
    local name=$1 outfile=$2
    shift 2
    local chain=client-int.pem
    [ "$name" = rogue ] && chain=rogue-ca.pem
    openssl pkcs12 -export "$@" -inkey "$name.key" -in "$name.pem" -certfile "$chain" \
        -name "$name" -passout "pass:$pass" -out "$outfile"
}
p12 client client.p12
p12 client client-legacy.p12 -legacy
p12 client2 client2.p12
p12 client-expired client-expired.p12
p12 client-expiring client-expiring.p12
p12 rogue rogue.p12
openssl pkey -in client.key -aes256 -passout "pass:$pass" -out client-enc.key
cat client.key client.pem client-int.pem >client-combined.pem
cp client.pem cert-only.pem
head -c 2048 /dev/urandom >garbage.p12

rm -rf ca-*/new ca-*/*.csr
chmod 600 ./*.key ./*.p12 password.txt
chmod 644 ./*.pem
