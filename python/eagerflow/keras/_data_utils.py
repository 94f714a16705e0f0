"""get_file: Keras's dataset cache (KERAS_HOME, else ~/.keras; /tmp/.keras when neither is writable)."""
import os
import urllib.error
import urllib.parse
import urllib.request


def _keras_home():
    return os.path.expanduser(os.environ.get("KERAS_HOME") or os.path.join("~", ".keras"))


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None):
    """The path of `fname` in the cache, downloaded from `origin` when it is not there.

    A file already in the cache is used as it is (an offline machine can hold its own copy)."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if untar or extract:
        raise NotImplementedError("get_file: archives (untar/extract) are not supported")
    base = os.path.expanduser(cache_dir) if cache_dir else _keras_home()
    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    fpath = os.path.join(base, cache_subdir, fname)
    if os.path.exists(fpath):
        return fpath
    if os.path.exists(base) and not os.access(base, os.W_OK):  # Keras's fallback for a read-only cache
        base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(base, cache_subdir)
    fpath = os.path.join(datadir, fname)
    if os.path.exists(fpath):
        return fpath
    os.makedirs(datadir, exist_ok=True)
    print(f"Downloading data from {origin}")
    tmp = fpath + ".part"
    try:
        try:
            urllib.request.urlretrieve(origin, tmp)
        except urllib.error.HTTPError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from e
        except urllib.error.URLError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}. Without network access, "
                            f"save the file as {fpath} (or pass its path).") from e
        os.replace(tmp, fpath)  # a failed download never leaves a partial file under the cached name
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return fpath
