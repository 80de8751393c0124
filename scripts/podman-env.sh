# Sourced by the image scripts: podman with everything under .build/podman, so /etc and the
# system's image store are left alone. Runc, not crun (Debian's crun refuses these machines'
# mixed cgroups); cgroupfs and a file event log, which need no systemd; and an open-files
# limit the invoking shell can actually grant.
podman_root="$(pwd)/.build/podman"
mkdir -p "$podman_root/config"
nofile="$(ulimit -Hn)"
[ "$nofile" = unlimited ] && nofile=1048576
cat > "$podman_root/config/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
printf '[storage]\ndriver = "overlay"\ngraphroot = "%s/storage"\nrunroot = "%s/run"\n' "$podman_root" "$podman_root" \
  > "$podman_root/config/storage.conf"
export CONTAINERS_CONF="$podman_root/config/containers.conf"
export CONTAINERS_STORAGE_CONF="$podman_root/config/storage.conf"
