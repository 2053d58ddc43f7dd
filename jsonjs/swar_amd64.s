#include "textflag.h"

DATA plainConsts<>+0(SB)/8, $0x2222222222222222
DATA plainConsts<>+8(SB)/8, $0x2222222222222222
DATA plainConsts<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+32(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA plainConsts<>+40(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL plainConsts<>(SB), RODATA|NOPTR, $48

// func plainRunSSE2(b []byte, i int) int
//
// plainRun with SSE2, which every amd64 processor has: sixteen bytes at a
// time, compared with '"' and '\\' and with 0x1f (a byte is a control
// character when its unsigned minimum with 0x1f is itself), then the last
// bytes one at a time. It reads no byte past len(b).
TEXT ·plainRunSSE2(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ i+24(FP), AX
	MOVOU plainConsts<>+0(SB), X1
	MOVOU plainConsts<>+16(SB), X2
	MOVOU plainConsts<>+32(SB), X3

blocks:
	LEAQ 16(AX), CX
	CMPQ CX, DX
	JGT tail
	MOVOU (SI)(AX*1), X0
	MOVO X0, X4
	PCMPEQB X1, X4
	MOVO X0, X5
	PCMPEQB X2, X5
	MOVO X0, X6
	PMINUB X3, X6
	PCMPEQB X0, X6
	POR X4, X5
	POR X5, X6
	PMOVMSKB X6, BX
	TESTL BX, BX
	JNZ found
	MOVQ CX, AX
	JMP blocks

found:
	BSFL BX, BX
	ADDQ BX, AX
	MOVQ AX, ret+32(FP)
	RET

tail:
	CMPQ AX, DX
	JGE done
	MOVBLZX (SI)(AX*1), BX
	CMPB BL, $0x22
	JEQ done
	CMPB BL, $0x5c
	JEQ done
	CMPB BL, $0x20
	JCS done
	INCQ AX
	JMP tail

done:
	MOVQ AX, ret+32(FP)
	RET
