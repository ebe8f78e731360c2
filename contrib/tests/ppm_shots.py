"""Screenshots as the panel pixel tests read them: binary PPM files (grim -t ppm), and copies of
a few kept as artifacts."""
import os
import shutil


def read_ppm(path):
    """(width, height, RGB bytes) of the binary PPM at `path`."""
    with open(path, "rb") as f:
        data = f.read()
    fields = []
    index = 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index) + 1
            continue
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    index += 1
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index:index + 3 * width * height]


def keep(directory, names, artifacts):
    """Copies the shots `names` (without .ppm) of `directory` into `artifacts`."""
    for name in names:
        shutil.copy(os.path.join(directory, name + ".ppm"), artifacts)
