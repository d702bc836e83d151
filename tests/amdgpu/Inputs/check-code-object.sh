# Compiles one program for an AMD chip and checks what comes out:
#   sh check-code-object.sh PBTOOL CHIP DIR PROGRAM
# - the HSACO (--emit=hsaco) is an AMDGPU HSA code object for CHIP whose
#   kernels (one .kd descriptor each) disassemble, each ending in s_endpgm;
# - the host object (-o k.o) embeds it.
set -e
pbtool=$1 chip=$2 dir=$3 program=$4
"$pbtool" compile "$program" --target=amdgpu --chip="$chip" --emit=hsaco -o "$dir/k.hsaco"
header=$(llvm-readelf -h "$dir/k.hsaco")
echo "$header" | grep -q "OS/ABI: *AMDGPU - HSA" || { echo "not an HSA code object"; exit 1; }
echo "$header" | grep -q "Machine: *EM_AMDGPU" || { echo "not an AMDGPU object"; exit 1; }
echo "$header" | grep -q "Flags: .*$chip" || { echo "not for $chip: $header"; exit 1; }
kernels=$(llvm-readelf --dyn-syms "$dir/k.hsaco" | grep -c "OBJECT .*\.kd$" || true)
endings=$(llvm-objdump -d "$dir/k.hsaco" | grep -c "s_endpgm" || true)
if [ "$kernels" -eq 0 ] || [ "$endings" -lt "$kernels" ]; then
  echo "$kernels kernel descriptors, $endings s_endpgm in the disassembly"
  exit 1
fi
"$pbtool" compile "$program" --target=amdgpu --chip="$chip" -o "$dir/k.o"
llvm-nm "$dir/k.o" | grep -q "__pb_gpu_image_" || { echo "no embedded code object"; exit 1; }
