"""Three things the Python binding of Debian's PocketSphinx (5prealpha) does not expose, called in
its C libraries through ctypes: interpolating two language models, making a model set a decoder's
search, and reading and setting the running cepstral mean (the state a decoder carries from one
utterance to the next, which must stay with one meeting).

Every call checks what it can (library symbols, the cepstral vector's length) and raises
NativeUnavailable otherwise; the sidecar then recognises with the general model alone.
"""

import ctypes
import ctypes.util


class NativeUnavailable(Exception):
    pass


class _CmnT(ctypes.Structure):
    # sphinxbase/cmn.h
    _fields_ = [
        ("cmn_mean", ctypes.POINTER(ctypes.c_float)),
        ("cmn_var", ctypes.POINTER(ctypes.c_float)),
        ("sum", ctypes.POINTER(ctypes.c_float)),
        ("nframe", ctypes.c_int32),
        ("veclen", ctypes.c_int32),
    ]


class _FeatT(ctypes.Structure):
    # sphinxbase/feat.h, up to the CMN structure
    _fields_ = [
        ("refcount", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("cepsize", ctypes.c_int32),
        ("n_stream", ctypes.c_int32),
        ("stream_len", ctypes.c_void_p),
        ("window_size", ctypes.c_int32),
        ("n_sv", ctypes.c_int32),
        ("sv_len", ctypes.c_void_p),
        ("subvecs", ctypes.c_void_p),
        ("sv_buf", ctypes.c_void_p),
        ("sv_dim", ctypes.c_int32),
        ("cmn", ctypes.c_int),
        ("varnorm", ctypes.c_int32),
        ("agc", ctypes.c_int),
        ("compute_feat", ctypes.c_void_p),
        ("cmn_struct", ctypes.POINTER(_CmnT)),
    ]


def _load(name):
    path = ctypes.util.find_library(name)
    if not path:
        raise NativeUnavailable(f"lib{name} not found")
    return ctypes.CDLL(path)


try:
    _base = _load("sphinxbase")
    _ps = _load("pocketsphinx")
    _base.ngram_model_set_init.restype = ctypes.c_void_p
    _base.ngram_model_set_init.argtypes = [
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_char_p),
        ctypes.POINTER(ctypes.c_float), ctypes.c_int32,
    ]
    _base.ngram_model_retain.restype = ctypes.c_void_p
    _base.ngram_model_retain.argtypes = [ctypes.c_void_p]
    _base.ngram_model_free.argtypes = [ctypes.c_void_p]
    _base.cmn_live_get.argtypes = [ctypes.POINTER(_CmnT), ctypes.POINTER(ctypes.c_float)]
    _base.cmn_live_set.argtypes = [ctypes.POINTER(_CmnT), ctypes.POINTER(ctypes.c_float)]
    _ps.ps_set_lm.restype = ctypes.c_int
    _ps.ps_set_lm.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    _ps.ps_get_feat.restype = ctypes.POINTER(_FeatT)
    _ps.ps_get_feat.argtypes = [ctypes.c_void_p]
    _failure = None
except (NativeUnavailable, AttributeError, OSError) as error:
    _failure = str(error)


def _pointer(swig_object):
    # A SWIG proxy's `this` converts to the address of the C object it wraps.
    return int(swig_object.this)


def check():
    if _failure:
        raise NativeUnavailable(_failure)


def set_interpolated_lm(decoder, name, general, meeting, meeting_weight):
    """Make `name` a search of `decoder` over general·(1-w) + meeting·w (both NGramModel proxies)."""
    check()
    models = (ctypes.c_void_p * 2)(
        _base.ngram_model_retain(_pointer(general)), _base.ngram_model_retain(_pointer(meeting))
    )
    names = (ctypes.c_char_p * 2)(b"general", b"meeting")
    weights = (ctypes.c_float * 2)(1.0 - meeting_weight, meeting_weight)
    config = _pointer(decoder.get_config())
    model_set = _base.ngram_model_set_init(config, models, names, weights, 2)
    if not model_set:
        raise NativeUnavailable("ngram_model_set_init failed")
    try:
        if _ps.ps_set_lm(_pointer(decoder), name.encode(), model_set) != 0:
            raise NativeUnavailable("ps_set_lm failed")
    finally:
        _base.ngram_model_free(model_set)  # the search holds its own reference


def _cmn(decoder):
    check()
    feat = _ps.ps_get_feat(_pointer(decoder))
    if not feat or not feat.contents.cmn_struct:
        raise NativeUnavailable("the decoder has no cepstral normalisation")
    cmn = feat.contents.cmn_struct
    if cmn.contents.veclen != feat.contents.cepsize or not 0 < cmn.contents.veclen <= 64:
        raise NativeUnavailable("unexpected feature layout")
    return cmn


def get_cmn(decoder):
    cmn = _cmn(decoder)
    vector = (ctypes.c_float * cmn.contents.veclen)()
    _base.cmn_live_get(cmn, vector)
    return list(vector)


def set_cmn(decoder, values, frames=500):
    """Set the running mean as if it had been measured over `frames` frames (cmn_live_set's is
    CMN_WIN, 500): the fewer, the faster the next utterance pulls it toward itself."""
    cmn = _cmn(decoder)
    if len(values) != cmn.contents.veclen:
        raise NativeUnavailable("cepstral mean of the wrong length")
    _base.cmn_live_set(cmn, (ctypes.c_float * len(values))(*values))
    for i, value in enumerate(values):
        cmn.contents.sum[i] = value * frames
    cmn.contents.nframe = frames
