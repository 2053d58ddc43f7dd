package units_test

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/units"
)

func Example() {
	bytes := int64(35957)
	fmt.Println(units.Tokens(bytes), "tokens")
	fmt.Println(units.Group(bytes), units.Group(-1234567))
	fmt.Println(units.Signed(-5), units.Signed(12))
	fmt.Println(units.Delta(100, 150), units.Delta(150, 100), units.Delta(0, 7))
	// Output:
	// 11985 tokens
	// 35,957 -1,234,567
	// -5 +12
	// +50.00% -33.33% ?
}
