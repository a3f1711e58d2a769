#!/usr/bin/env bash
# The tiny silent videos static/wake.js plays to keep a phone's screen on where the Screen Wake
# Lock API is missing (plain http on the table's network): 2 s of a black 16 x 16 picture, VP8 in
# WebM and H.264 (baseline, fast start) in MP4. Needs Debian's ffmpeg; the files are kept in the
# repository, so the app needs nothing at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p static/wake
ffmpeg -loglevel error -y -f lavfi -i color=c=black:s=16x16:r=1:d=2 -c:v libvpx -b:v 10k -an static/wake/wake.webm
ffmpeg -loglevel error -y -f lavfi -i color=c=black:s=16x16:r=1:d=2 -c:v libx264 -profile:v baseline \
  -pix_fmt yuv420p -movflags +faststart -an static/wake/wake.mp4
ls -l static/wake
