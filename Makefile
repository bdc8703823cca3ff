# warpscope: the commands a new user types. Each target does what it needs first and is
# safe to repeat.
#   make deps    install missing system packages (Debian/Ubuntu, apt-get; a no-op when present)
#   make build   Release build; the CLI ends at build/warpscope
#   make test    build, then run every test through CTest
#   make demo    the main job on bundled examples, printing the report
#   make sanitize  ASan + UBSan build in build-asan/, all tests there
#   make fuzz    build the libFuzzer targets with clang (build-fuzz/) and run each briefly
#   make bench   run the Google Benchmarks (figures in docs/speed.md)
#   make pydeps  the Python tests' virtual environment (VENV; Triton 3.6 and pytest from PyPI, once)

BUILD      ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 20
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# The Python the extension is built for, and the tests' virtual environment made from it
# (CI points VENV at a cache that outlives the clone: .ci/run).
PYTHON     ?= python3
PYTHON_EXE := $(shell $(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null)
VENV       ?= $(BUILD)/venv
PY_REQUIREMENTS := tests/python/requirements.txt

PACKAGES := cmake ninja-build g++ make python3 python3-pip ccache pkg-config \
            libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
            clang libclang-rt-dev chromium pybind11-dev python3-dev python3-venv

.PHONY: deps pydeps build test demo sanitize fuzz bench clean

deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	else echo "deps: all present"; fi
	@# nvdisasm shows the SASS ptxas makes of a kernel (optional; warpscope prices the PTX without it)
	@command -v nvdisasm >/dev/null 2>&1 || python3 -c "import glob,site,sys; sys.exit(0 if any(glob.glob(s+'/nvidia/cu*/bin/nvdisasm') for s in site.getsitepackages()+[site.getusersitepackages()]) else 1)" 2>/dev/null || \
	  python3 -m pip install -q nvidia-cuda-nvdisasm 2>/dev/null || python3 -m pip install -q --break-system-packages nvidia-cuda-nvdisasm || \
	  echo "deps: could not install nvidia-cuda-nvdisasm; warpscope kernel will price PTX"

$(BUILD)/build.ninja $(BUILD)/Makefile:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release $(if $(PYTHON_EXE),-DPython_EXECUTABLE=$(PYTHON_EXE))

# Installs the requirements once; again only when the list changes (the stamp is a copy of it).
pydeps: $(VENV)/.requirements
$(VENV)/.requirements: $(PY_REQUIREMENTS)
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r $(PY_REQUIREMENTS)
	@cp $(PY_REQUIREMENTS) $@

build: deps $(BUILD)/$(if $(CMAKE_GEN),build.ninja,Makefile)
	cmake --build $(BUILD) -j $(JOBS)

test: build pydeps
	WARPSCOPE_VENV=$(abspath $(VENV)) ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

demo: build
	@echo "== warpscope pattern patterns/transpose.ws (the seed articles' transpose tiles)"
	@./$(BUILD)/warpscope pattern patterns/transpose.ws
	@echo
	@echo "== warpscope access (one warp instruction per JSON line)"
	@./$(BUILD)/warpscope access < tests/data/access_demo.jsonl
	@echo
	@echo "== warpscope kernel: the tiled transpose (32-way conflicts on the column read)"
	@./$(BUILD)/warpscope kernel examples/transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 16,16 --block 32,8 \
	  --arg buf:1048576 --arg buf:1048576 --arg i32:512 --sass-listing tests/data/sass/transpose_tiled.sass | head -40
	@echo
	@echo "== warpscope kernel: the padded transpose (conflict-free)"
	@./$(BUILD)/warpscope kernel examples/transpose_padded.ptx --kernel _Z16transpose_paddedIfEvPT_PKS0_i --grid 16,16 \
	  --block 32,8 --arg buf:1048576 --arg buf:1048576 --arg i32:512 --sass-listing tests/data/sass/transpose_padded.sass
	@echo
	@echo "== warpscope kernel: the tiled GEMM, priced from the SASS (ptxas merges As reads into LDS.128)"
	@./$(BUILD)/warpscope kernel examples/gemm_tiled.ptx --grid 8,8 --block 32,32 --arg buf:262144 --arg buf:262144 \
	  --arg buf:262144 --arg i32:256 --sass-listing tests/data/sass/gemm_tiled.sass | head -16

sanitize: deps
	cmake -S . -B build-asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSCOPE_SANITIZE=ON -DWARPSCOPE_BENCH=OFF
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j $(JOBS)

fuzz: deps
	CXX=clang++ cmake -S . -B build-fuzz $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DWARPSCOPE_SANITIZE=ON -DWARPSCOPE_FUZZ=ON -DWARPSCOPE_TESTS=OFF -DWARPSCOPE_BENCH=OFF
	cmake --build build-fuzz -j $(JOBS) --target $$(cd fuzz && ls *_fuzz.cc | sed 's/\.cc$$//')
	@for f in fuzz/*_fuzz.cc; do t=$$(basename $$f .cc); c=fuzz/corpus/$${t%_fuzz}; mkdir -p $$c build-fuzz/corpus-$$t; \
	  echo "== $$t ($(FUZZ_SECONDS) s)"; \
	  ./build-fuzz/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 build-fuzz/corpus-$$t $$c \
	    > build-fuzz/$$t.log 2>&1; status=$$?; tail -2 build-fuzz/$$t.log; \
	  if [ $$status -ne 0 ]; then echo "$$t failed (status $$status); see build-fuzz/$$t.log"; exit 1; fi; \
	done

bench: build
	./$(BUILD)/bench/model_bench
	@for b in trace_bench emu_bench pattern_bench; do [ -x ./$(BUILD)/bench/$$b ] && ./$(BUILD)/bench/$$b || true; done

clean:
	rm -rf $(BUILD) build-asan build-fuzz
