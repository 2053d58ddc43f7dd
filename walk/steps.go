package walk

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/procgroup"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/tidwall/gjson"
)

// doc reads a document: a file, a command's output, or the body of a GET.
func (r *runner) doc(ctx context.Context, st *Step, d *DocSource) (*exchange, error) {
	switch {
	case d.File != "":
		b, err := infile.Read(d.File, "document", infile.Max)
		if err != nil {
			var ie *infile.Error
			msg := err.Error()
			if errors.As(err, &ie) {
				msg = ie.Msg
			}
			return nil, r.fail(st, 0, "cannot read the document: "+msg, &exchange{request: "read " + d.File})
		}
		return &exchange{request: "read " + d.File, body: b, json: b}, nil
	case d.Exec != nil:
		return r.run(ctx, st, d.Exec, d.Env)
	default:
		line, err := r.sc.render(d.HTTP)
		if err != nil {
			return nil, specErr(st, err)
		}
		_, path, _ := strings.Cut(line, " ")
		target, err := r.resolve(strings.TrimSpace(path))
		if err != nil {
			return nil, specErr(st, err)
		}
		auth, err := r.sc.render(d.Auth)
		if err != nil {
			return nil, specErr(st, err)
		}
		h := http.Header{}
		if auth != "" {
			r.sc.secret(auth)
			h.Set("Authorization", "Bearer "+auth)
		}
		return r.send(ctx, st, http.MethodGet, target, h, nil, false, redirect.None, nil)
	}
}

// exec runs a command whose standard output, JSON, values are kept from.
func (r *runner) exec(ctx context.Context, st *Step, e *ExecCommand) (*exchange, error) {
	ex, err := r.run(ctx, st, e.Argv, e.Env)
	if err != nil {
		return nil, err
	}
	if (len(st.Keep) > 0 || len(st.Expect.Paths) > 0) && !jsonValid(ex.body) {
		return nil, r.fail(st, 0, "the command's output is not JSON", ex)
	}
	return ex, nil
}

func jsonValid(b []byte) bool {
	return len(bytes.TrimSpace(b)) > 0 && gjson.ValidBytes(b)
}

// run runs argv in the spec's directory and returns its standard output.
func (r *runner) run(ctx context.Context, st *Step, argv []string, env []KV) (*exchange, error) {
	args := make([]string, len(argv))
	for i, a := range argv {
		s, err := r.sc.render(a)
		if err != nil {
			return nil, specErr(st, err)
		}
		args[i] = s
	}
	ex := &exchange{request: "run " + strings.Join(args, " ")}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = st.specDir()
	cmd.Env = os.Environ()
	for _, kv := range env {
		v, err := r.sc.render(kv.Value)
		if err != nil {
			return nil, specErr(st, err)
		}
		cmd.Env = append(cmd.Env, kv.Key+"="+v)
	}
	// The command and its children run in a group of their own: the step's
	// time limit (or a stop) ends them all, SIGTERM then SIGKILL, and a child
	// that holds the output open after the command exits does not hold the
	// step. The output is capped as an HTTP answer is.
	procgroup.Prepare(cmd, procgroup.Grace)
	stdout := &capped{max: maxBody, over: func() { go procgroup.Stop(cmd.Process.Pid, procgroup.Grace) }}
	stderr := &capped{max: 1 << 20, drop: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := procgroup.Start(cmd)
	if err == nil {
		err = procgroup.Wait(cmd)
	}
	switch {
	case stdout.tooLarge:
		return nil, r.fail(st, 0, fmt.Sprintf("the command's output is larger than %d MiB, the most a step reads", maxBody>>20), ex)
	case ctx.Err() != nil:
		ex.body = stderr.Bytes()
		return nil, r.fail(st, 0, "the command did not finish: "+r.transportError(context.Cause(ctx)), ex)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited; a child it left held its output open.
	case err != nil:
		ex.body = stderr.Bytes()
		return nil, r.fail(st, 0, "the command failed: "+err.Error(), ex)
	}
	ex.body, ex.json = stdout.Bytes(), stdout.Bytes()
	return ex, nil
}

// capped is a command's output, kept up to max bytes. Past max it calls
// over once and refuses the rest (or, with drop, keeps the first max bytes
// and drops the rest).
type capped struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	max      int
	drop     bool
	tooLarge bool
	over     func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf.Len()+len(p) <= c.max {
		return c.buf.Write(p)
	}
	if c.drop {
		c.buf.Write(p[:c.max-c.buf.Len()])
		return len(p), nil
	}
	if !c.tooLarge {
		c.tooLarge = true
		if c.over != nil {
			c.over()
		}
	}
	return 0, errors.New("output past the limit")
}

func (c *capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Bytes()
}

type keyPair struct {
	priv ed25519.PrivateKey
}

// key makes a key pair, or signs a pre-image with one.
func (r *runner) key(st *Step, k *KeyStep) error {
	if k.Sign == nil {
		var seed []byte
		if k.Seed != "" {
			s, err := r.sc.render(k.Seed)
			if err != nil {
				return specErr(st, err)
			}
			seed, err = hex.DecodeString(s)
			if err != nil || len(seed) != ed25519.SeedSize {
				return specErr(st, fmt.Errorf("key %s: seed is not %d bytes of hex", k.Name, ed25519.SeedSize))
			}
		} else {
			seed = make([]byte, ed25519.SeedSize)
			if _, err := rand.Read(seed); err != nil {
				return err
			}
		}
		priv := ed25519.NewKeyFromSeed(seed)
		pub := priv.Public().(ed25519.PublicKey)
		r.keys[k.Name] = &keyPair{priv: priv}
		r.sc.set(k.Name+".public_key", value{text: hex.EncodeToString(pub)}, false)
		r.sc.set(k.Name+".public_key_base64", value{text: base64.StdEncoding.EncodeToString(pub)}, false)
		r.sc.set(k.Name+".public_key_base64url", value{text: base64.RawURLEncoding.EncodeToString(pub)}, false)
		r.sc.set(k.Name+".seed", value{text: hex.EncodeToString(seed)}, true)
		return nil
	}
	kp, ok := r.keys[k.Name]
	if !ok {
		return specErr(st, fmt.Errorf("key %s: no key step made it before this signature", k.Name))
	}
	var pre []byte
	for i, p := range k.Sign {
		if p.Kind == PreimageZero {
			pre = append(pre, 0)
			continue
		}
		s, err := r.sc.render(p.Value)
		if err != nil {
			return specErr(st, err)
		}
		switch p.Kind {
		case PreimageText:
			pre = append(pre, s...)
		case PreimageHex:
			b, err := hex.DecodeString(s)
			if err != nil {
				return r.fail(st, 0, fmt.Sprintf("sign[%d]: %q is not hex", i, clip(s)), nil)
			}
			pre = append(pre, b...)
		case PreimageBase64:
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				b, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
			}
			if err != nil {
				return r.fail(st, 0, fmt.Sprintf("sign[%d]: %q is not base64", i, clip(s)), nil)
			}
			pre = append(pre, b...)
		}
	}
	sig := ed25519.Sign(kp.priv, pre)
	as := k.As
	if as == "" {
		as = k.Name
	}
	r.sc.set(as+".signature", value{text: hex.EncodeToString(sig)}, false)
	r.sc.set(as+".signature_base64", value{text: base64.StdEncoding.EncodeToString(sig)}, false)
	r.sc.set(as+".signature_base64url", value{text: base64.RawURLEncoding.EncodeToString(sig)}, false)
	return nil
}

// pkce makes an OAuth PKCE pair: a verifier and its S256 challenge.
func (r *runner) pkce(k *PKCEStep) error {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	verifier := base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	r.sc.set(k.Name+".verifier", value{text: verifier}, true)
	r.sc.set(k.Name+".challenge", value{text: base64.RawURLEncoding.EncodeToString(sum[:])}, false)
	r.sc.set(k.Name+".method", value{text: "S256"}, false)
	return nil
}
