#!/usr/bin/env bash
# Builds the services' base image without a Docker daemon and without pulling anything: a `docker save`-format
# tarball (one gzipped layer) holding
#   - a Java runtime made with jlink from the build JDK ($JAVA_HOME, 21 or newer) at /opt/java,
#   - the C library files of the Debian package libc6 the runtime links against (taken from the build machine's
#     installed package, whose name and version go into the image's labels), and
#   - /etc/passwd, /etc/group and /etc/nsswitch.conf with the non-root user 185 the services run as, and /tmp.
# Quarkus' Jib extension builds every service image on top of it (quarkus.jib.base-jvm-image=tar://…; the root
# pom's `image` profile). Production builds that can reach a registry use a maintained base instead
# (docs/deploying-kubernetes.md, "Images").
#
#   deploy/docker/jvm-base.sh OUTPUT.tar
#
# Rebuilt only when its inputs changed (this script, the JDK, libc6's version); otherwise a no-op.
set -euo pipefail

out="${1:?usage: jvm-base.sh OUTPUT.tar}"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
jlink="$java_home/bin/jlink"
[[ -x "$jlink" ]] || { echo "jvm-base: no jlink in $java_home (set JAVA_HOME to a JDK 21+)" >&2; exit 1; }

# The modules the services need (checked with `jdeps --print-module-deps` over each quarkus-app, plus the ones
# loaded reflectively: jdk.crypto.* for TLS to PostgreSQL/Kafka, jdk.naming.dns for the JNDI DNS lookups some
# clients make, jdk.management for the process metrics, jdk.localedata is left out: the services format in ROOT).
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,\
java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.crypto.cryptoki,\
jdk.charsets,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs

libc_version="$(dpkg-query -W -f '${Version}' libc6 2>/dev/null || true)"
[[ -n "$libc_version" ]] || { echo "jvm-base: the Debian package libc6 is not installed here" >&2; exit 1; }
java_version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')"
arch="$(dpkg --print-architecture)"
case "$arch" in amd64 | arm64) ;; *) echo "jvm-base: unsupported architecture $arch" >&2; exit 1 ;; esac

fingerprint="$( (sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1; echo "$java_home $java_version libc6=$libc_version $modules") | sha256sum | cut -d' ' -f1)"
if [[ -f "$out" && -f "$out.fingerprint" && "$(cat "$out.fingerprint")" == "$fingerprint" ]]; then
  echo "jvm-base: $out is up to date (Java $java_version, libc6 $libc_version)"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/jvm-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/opt" "$root/etc" "$root/tmp" "$root/home/jboss" "$root/usr/share/doc"

"$jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=zip-6 \
  --output "$root/opt/java"

# libc6's shared objects and the dynamic loader (with their symlinks), as Debian installs them.
dpkg-query -L libc6 | while IFS= read -r f; do
  case "$f" in
    /lib*/*.so* | /usr/lib*/*.so* | /usr/share/doc/libc6/copyright)
      if [[ -f "$f" || -L "$f" ]]; then
        mkdir -p "$root$(dirname "$f")"
        cp -a "$f" "$root$f"
      fi
      ;;
  esac
done
# Debian 12 keeps /lib and /lib64 as links into /usr (merged /usr): the loader path in every ELF binary is
# /lib64/ld-linux-x86-64.so.2 (amd64) or /lib/ld-linux-aarch64.so.1 (arm64).
for link in /lib /lib64; do
  if [[ -L "$link" && ! -e "$root$link" ]]; then
    ln -s "$(readlink "$link")" "$root$link"
  fi
done

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
jboss:x:185:0:cryptopay service:/home/jboss:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
echo 'hosts: files dns' >"$root/etc/nsswitch.conf"
chmod 1777 "$root/tmp"
chmod 0775 "$root/home/jboss"

# One reproducible layer: sorted names, fixed times and owners (185 owns its home), gzip without a timestamp.
layer="$work/layer.tar"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=posix \
  --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  --exclude=./home/jboss -C "$root" -cf "$layer" .
tar --mtime=@0 --owner=185 --group=0 --numeric-owner --format=posix \
  --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  -C "$root" -rf "$layer" ./home/jboss
diff_id="$(sha256sum "$layer" | cut -d' ' -f1)"
gzip -n -6 "$layer"
layer_gz="$(sha256sum "$layer.gz" | cut -d' ' -f1)"

image="$work/image"
mkdir -p "$image"
mv "$layer.gz" "$image/$layer_gz.tar.gz"
cat >"$work/config.json" <<EOF
{"architecture":"$arch","os":"linux","created":"1970-01-01T00:00:00Z",
 "config":{"User":"185","WorkingDir":"/home/jboss",
  "Env":["PATH=/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","LANG=C.UTF-8"],
  "Labels":{"org.opencontainers.image.title":"cryptopay JVM base",
   "org.opencontainers.image.description":"jlinked Java $java_version on Debian libc6 $libc_version",
   "dev.cryptopay.base.java":"$java_version","dev.cryptopay.base.libc6":"$libc_version"}},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"deploy/docker/jvm-base.sh"}]}
EOF
config_sha="$(sha256sum "$work/config.json" | cut -d' ' -f1)"
mv "$work/config.json" "$image/$config_sha.json"
printf '[{"Config":"%s.json","RepoTags":["cryptopay/jvm-base:latest"],"Layers":["%s.tar.gz"]}]\n' \
  "$config_sha" "$layer_gz" >"$image/manifest.json"

mkdir -p "$(dirname "$out")"
# Plain names at the top (no "./" entry: Jib refuses to unpack one).
tar --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$image" -cf "$out.tmp" \
  manifest.json "$config_sha.json" "$layer_gz.tar.gz"
mv "$out.tmp" "$out"
echo "$fingerprint" >"$out.fingerprint"
echo "jvm-base: wrote $out ($(du -h "$out" | cut -f1); Java $java_version, libc6 $libc_version, user 185)"
