"""What `make dist` must leave in dist/ (mk/dist.mk), checked after twine's metadata check:

- one of each artefact: the sdist, a compiled wheel, the pure ``py3-none-any`` wheel, the SDK wheel
  and npm package, the chart package;
- classifiers true for each: a compiled wheel names its platform and CPython, never "OS Independent";
  the pure wheel and the sdist are "OS Independent";
- the service's wheels carry the commit they were built from (``gongzhu/COMMIT``) and the pure one no
  extension module.

    python mk/check_dist.py [dist]
"""
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

INDEPENDENT = "Operating System :: OS Independent"


def classifiers(text: str) -> list[str]:
    return Parser().parsestr(text).get_all("Classifier") or []


def wheel_metadata(wheel: Path) -> tuple[list[str], list[str]]:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    return names, classifiers(meta)


def problems(dist: Path) -> list[str]:
    found = {name: sorted(dist.glob(name)) for name in (
        "gongzhu_service-*.tar.gz", "gongzhu_service-*-cp3*.whl", "gongzhu_service-*-py3-none-any.whl",
        "gongzhu_client-*-py3-none-any.whl", "gongzhu-client-*.tgz", "gongzhu-service-*.tgz")}
    wrong = [f"{name}: {len(paths)} found, one wanted" for name, paths in found.items() if len(paths) != 1]
    if wrong:
        return wrong
    (sdist,), (compiled,), (pure,) = (found[k] for k in list(found)[:3])
    with tarfile.open(sdist) as archive:
        info = archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/PKG-INFO").read().decode()
    if INDEPENDENT not in classifiers(info):
        wrong.append(f"{sdist.name}: not {INDEPENDENT}")
    names, tags = wheel_metadata(compiled)
    if INDEPENDENT in tags or "Programming Language :: Python :: Implementation :: CPython" not in tags:
        wrong.append(f"{compiled.name}: its classifiers say {tags}")
    if not any(n.endswith((".so", ".pyd")) for n in names) or "gongzhu/COMMIT" not in names:
        wrong.append(f"{compiled.name}: no extension module or no COMMIT")
    names, tags = wheel_metadata(pure)
    if INDEPENDENT not in tags or any(n.endswith((".so", ".pyd")) for n in names) or "gongzhu/COMMIT" not in names:
        wrong.append(f"{pure.name}: not a pure wheel for any platform with its COMMIT")
    return wrong


def main(argv: list[str]) -> int:
    dist = Path(argv[0] if argv else "dist")
    wrong = problems(dist)
    for line in wrong:
        print(f"mk/check_dist.py: {line}", file=sys.stderr)
    if not wrong:
        print(f"mk/check_dist.py: {dist}/ holds every release artefact, classifiers true for each")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
